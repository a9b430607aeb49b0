#pragma once
// CUDA's built-in vector types and dim3, laid out as nvcc lays them out (float3 is 12 bytes,
// uint4 16-byte aligned), with the make_* functions the kernels call.
#include <cstdint>

#define MENISCUS_CUDA_CPU_VECTOR2(T, name, align)                       \
  struct alignas(align) name {                                          \
    T x, y;                                                             \
  };                                                                    \
  inline name make_##name(T x, T y) { return name{x, y}; }
#define MENISCUS_CUDA_CPU_VECTOR3(T, name)                              \
  struct name {                                                         \
    T x, y, z;                                                          \
  };                                                                    \
  inline name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define MENISCUS_CUDA_CPU_VECTOR4(T, name, align)                       \
  struct alignas(align) name {                                          \
    T x, y, z, w;                                                       \
  };                                                                    \
  inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

MENISCUS_CUDA_CPU_VECTOR2(float, float2, 8)
MENISCUS_CUDA_CPU_VECTOR3(float, float3)
MENISCUS_CUDA_CPU_VECTOR4(float, float4, 16)
MENISCUS_CUDA_CPU_VECTOR2(int, int2, 8)
MENISCUS_CUDA_CPU_VECTOR3(int, int3)
MENISCUS_CUDA_CPU_VECTOR4(int, int4, 16)
MENISCUS_CUDA_CPU_VECTOR2(unsigned int, uint2, 8)
MENISCUS_CUDA_CPU_VECTOR3(unsigned int, uint3)
MENISCUS_CUDA_CPU_VECTOR4(unsigned int, uint4, 16)
MENISCUS_CUDA_CPU_VECTOR2(unsigned char, uchar2, 2)
MENISCUS_CUDA_CPU_VECTOR4(unsigned char, uchar4, 4)
MENISCUS_CUDA_CPU_VECTOR2(unsigned short, ushort2, 4)
MENISCUS_CUDA_CPU_VECTOR4(unsigned short, ushort4, 8)
MENISCUS_CUDA_CPU_VECTOR2(double, double2, 16)
MENISCUS_CUDA_CPU_VECTOR3(double, double3)

#undef MENISCUS_CUDA_CPU_VECTOR2
#undef MENISCUS_CUDA_CPU_VECTOR3
#undef MENISCUS_CUDA_CPU_VECTOR4

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

static_assert(sizeof(float3) == 12 && sizeof(uint4) == 16 && alignof(uint4) == 16 && sizeof(uchar4) == 4,
              "vector types are laid out as nvcc lays them out");

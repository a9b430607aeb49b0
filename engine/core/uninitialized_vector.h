#pragma once
// A std::vector whose resize leaves new elements of a trivial type uninitialised: for large
// results that every element of is written by parallel workers anyway, so that one thread does
// not first zero them (and take every page fault) alone.
//
// Buffers of 4 MiB and more are asked for on 2 MiB pages (Linux transparent huge pages, where
// the system lends them on request): such results are often written or read in scattered
// order (KNN rows by input index, a tree's points by leaf), and with 4 KiB pages nearly every
// such access misses the TLB. A system that gives no huge pages gives ordinary ones.
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace meniscus {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  static constexpr size_t kHugePage = size_t(2) << 20;
  static constexpr size_t kHugeFrom = size_t(4) << 20;

  T* allocate(size_t n) {
    if (n > (size_t(PTRDIFF_MAX) - kHugePage) / sizeof(T)) throw std::bad_alloc();
    if (n * sizeof(T) < kHugeFrom) return std::allocator<T>::allocate(n);
    const size_t bytes = rounded_to_pages(n);
    void* p = std::aligned_alloc(kHugePage, bytes);
    if (!p) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: no huge pages leaves ordinary ones
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < kHugeFrom) return std::allocator<T>::deallocate(p, n);
    std::free(p);
  }

  // Value-initialisation (what resize(n) asks for) becomes default-initialisation.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

 private:
  static size_t rounded_to_pages(size_t n) { return (n * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage; }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace meniscus

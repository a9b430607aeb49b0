// Embree 3 behind embree_peer.h. The device, scene and geometry live as long as the EmbreeScene;
// a rebuild writes the frame's triangles into the geometry's buffers, marks them updated and
// commits, which rebuilds the BVH from scratch at the scene's quality. Rays are traced as our
// kd-tree traces them, from the tracer's TBB threads: a batch of closest hits in packets
// (rtcIntersect16, or rtcIntersect8 where 16 are not native), single rays one at a time
// (rtcIntersect1 / rtcOccluded1).
#include "tools/bench/embree_peer.h"

#include <embree3/rtcore.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>

#include "engine/core/error.h"

namespace meniscus::bench {
namespace {

using sim::raytrace::Ray;
using sim::raytrace::RayHit;

RTCRayHit to_embree(const Ray& ray) {
  RTCRayHit r{};
  r.ray.org_x = ray.origin.x;
  r.ray.org_y = ray.origin.y;
  r.ray.org_z = ray.origin.z;
  r.ray.dir_x = ray.direction.x;
  r.ray.dir_y = ray.direction.y;
  r.ray.dir_z = ray.direction.z;
  r.ray.tnear = ray.t_min;
  r.ray.tfar = ray.t_max;
  r.ray.mask = ~0u;
  r.ray.flags = 0;
  r.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  r.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  return r;
}

class EmbreeIntersector final : public sim::raytrace::Intersector {
 public:
  // Packets of 16 where this Embree and CPU trace them natively (AVX-512), else of 8.
  EmbreeIntersector(RTCDevice device, RTCScene scene)
      : device_(device),
        scene_(scene),
        native_ray16_(rtcGetDeviceProperty(device, RTC_DEVICE_PROPERTY_NATIVE_RAY16_SUPPORTED) != 0) {}
  RayHit closest(const Ray& ray) const override {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit r = to_embree(ray);
    rtcIntersect1(scene_, &context, &r);
    RayHit hit;
    if (r.hit.geomID == RTC_INVALID_GEOMETRY_ID) return hit;
    hit.t = r.ray.tfar;
    hit.triangle = r.hit.primID;
    hit.u = r.hit.u;
    hit.v = r.hit.v;
    hit.normal = {r.hit.Ng_x, r.hit.Ng_y, r.hit.Ng_z};  // cross(v1 - v0, v2 - v0), as ours
    return hit;
  }
  void closest_batch(std::span<const Ray> rays, std::span<RayHit> hits) const override {
    if (native_ray16_)
      trace_packets<16, RTCRayHit16, rtcIntersect16>(rays, hits);
    else
      trace_packets<8, RTCRayHit8, rtcIntersect8>(rays, hits);
    // A kernel that failed (or an Embree built without packets) would look fast: say so.
    if (const RTCError error = rtcGetDeviceError(device_); error != RTC_ERROR_NONE)
      throw DeviceError("embree: packet tracing failed (RTCError " + std::to_string(int(error)) + ")");
  }
  bool any(const Ray& ray) const override {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRay r = to_embree(ray).ray;
    rtcOccluded1(scene_, &context, &r);
    return r.tfar == -std::numeric_limits<float>::infinity();
  }

 private:
  // Batches in packets of N, marked coherent: neighbouring pixels' rays (incoherent traced the
  // water a third slower).
  template <size_t N, class RayHitN, void (*IntersectN)(const int*, RTCScene, RTCIntersectContext*, RayHitN*)>
  void trace_packets(std::span<const Ray> rays, std::span<RayHit> hits) const {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    for (size_t first = 0; first < rays.size(); first += N) {
      const size_t count = std::min(N, rays.size() - first);
      alignas(64) int valid[N];
      alignas(64) RayHitN packet;
      for (size_t i = 0; i < N; ++i) {
        const Ray& ray = rays[first + (i < count ? i : 0)];
        valid[i] = i < count ? -1 : 0;
        packet.ray.org_x[i] = ray.origin.x;
        packet.ray.org_y[i] = ray.origin.y;
        packet.ray.org_z[i] = ray.origin.z;
        packet.ray.dir_x[i] = ray.direction.x;
        packet.ray.dir_y[i] = ray.direction.y;
        packet.ray.dir_z[i] = ray.direction.z;
        packet.ray.tnear[i] = ray.t_min;
        packet.ray.tfar[i] = ray.t_max;
        packet.ray.time[i] = 0.0f;
        packet.ray.mask[i] = ~0u;
        packet.ray.id[i] = 0;
        packet.ray.flags[i] = 0;
        packet.hit.geomID[i] = RTC_INVALID_GEOMETRY_ID;
        packet.hit.instID[0][i] = RTC_INVALID_GEOMETRY_ID;
      }
      IntersectN(valid, scene_, &context, &packet);
      for (size_t i = 0; i < count; ++i) {
        RayHit hit;
        if (packet.hit.geomID[i] != RTC_INVALID_GEOMETRY_ID) {
          hit.t = packet.ray.tfar[i];
          hit.triangle = packet.hit.primID[i];
          hit.u = packet.hit.u[i];
          hit.v = packet.hit.v[i];
          hit.normal = {packet.hit.Ng_x[i], packet.hit.Ng_y[i], packet.hit.Ng_z[i]};
        }
        hits[first + i] = hit;
      }
    }
  }

  RTCDevice device_;
  RTCScene scene_;
  bool native_ray16_;
};

class Scene final : public EmbreeScene {
 public:
  Scene(const std::string& quality, int threads)
      : device_(rtcNewDevice(("threads=" + std::to_string(threads)).c_str())),
        quality_(quality == "low" ? RTC_BUILD_QUALITY_LOW : RTC_BUILD_QUALITY_MEDIUM) {
    if (!device_) throw DeviceError("embree: rtcNewDevice failed");
    scene_ = rtcNewScene(device_);
    rtcSetSceneBuildQuality(scene_, quality_);
    rtcSetSceneFlags(scene_, RTC_SCENE_FLAG_DYNAMIC);  // rebuilt every frame, as ours
    intersector_ = std::make_unique<EmbreeIntersector>(device_, scene_);
  }
  ~Scene() override {
    if (scene_) rtcReleaseScene(scene_);
    if (device_) rtcReleaseDevice(device_);
  }

  void rebuild(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices) override {
    const auto start = std::chrono::steady_clock::now();
    if (!geometry_ || vertices.size() != vertex_count_ || indices.size() != index_count_) {
      if (geometry_) rtcDetachGeometry(scene_, geometry_id_);
      geometry_ = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
      rtcSetGeometryBuildQuality(geometry_, quality_);
      rtcSetNewGeometryBuffer(geometry_, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                              vertices.size());
      rtcSetNewGeometryBuffer(geometry_, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(uint32_t),
                              indices.size() / 3);
      geometry_id_ = rtcAttachGeometry(scene_, geometry_);
      rtcReleaseGeometry(geometry_);  // the scene holds it
      vertex_count_ = vertices.size();
      index_count_ = indices.size();
    }
    std::memcpy(rtcGetGeometryBufferData(geometry_, RTC_BUFFER_TYPE_VERTEX, 0), vertices.data(),
                vertices.size() * sizeof(glm::vec3));
    std::memcpy(rtcGetGeometryBufferData(geometry_, RTC_BUFFER_TYPE_INDEX, 0), indices.data(),
                indices.size() * sizeof(uint32_t));
    rtcUpdateGeometryBuffer(geometry_, RTC_BUFFER_TYPE_VERTEX, 0);
    rtcUpdateGeometryBuffer(geometry_, RTC_BUFFER_TYPE_INDEX, 0);
    rtcCommitGeometry(geometry_);
    rtcCommitScene(scene_);
    // A failed build would look fast: say so instead.
    if (const RTCError error = rtcGetDeviceError(device_); error != RTC_ERROR_NONE)
      throw DeviceError("embree: the scene's commit failed (RTCError " + std::to_string(int(error)) + ")");
    build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  const sim::raytrace::Intersector& intersector() const override { return *intersector_; }

 private:
  RTCDevice device_ = nullptr;
  RTCScene scene_ = nullptr;
  RTCBuildQuality quality_;
  RTCGeometry geometry_ = nullptr;
  unsigned geometry_id_ = 0;
  size_t vertex_count_ = 0, index_count_ = 0;
  std::unique_ptr<EmbreeIntersector> intersector_;
};

}  // namespace

std::unique_ptr<EmbreeScene> embree_scene(const std::string& quality, int threads) {
  return std::make_unique<Scene>(quality, threads);
}

const char* embree_version() { return RTC_VERSION_STRING; }

}  // namespace meniscus::bench

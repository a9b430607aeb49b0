// UninitializedVector: small and large buffers (the large ones on 2 MiB pages where Linux lends
// them) hold what was written through growth, copies and moves, and a size no allocation can
// hold is refused rather than wrapped.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <new>

#include "engine/core/uninitialized_vector.h"

namespace meniscus {
namespace {

template <class T>
bool holds_counting_values(const UninitializedVector<T>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != T(i)) return false;
  return true;
}

TEST_CASE("core: a large UninitializedVector is 2 MiB aligned and keeps its values through growth", "[core]") {
  using Allocator = UninitializedAllocator<uint32_t>;
  UninitializedVector<uint32_t> v;
  // From below the huge-page size to well above it, element by element: every reallocation
  // crosses between the two kinds of allocation once and copies the values over.
  const size_t count = 3 * Allocator::kHugeFrom / sizeof(uint32_t) + 7;
  for (size_t i = 0; i < count; ++i) v.push_back(uint32_t(i));
  CHECK(reinterpret_cast<uintptr_t>(v.data()) % Allocator::kHugePage == 0);
  CHECK(holds_counting_values(v));

  UninitializedVector<uint32_t> copy = v;
  CHECK(reinterpret_cast<uintptr_t>(copy.data()) % Allocator::kHugePage == 0);
  CHECK(holds_counting_values(copy));
  v.resize(10);  // shrinking keeps the large buffer; shrink_to_fit moves it to a small one
  v.shrink_to_fit();
  CHECK(holds_counting_values(v));
  UninitializedVector<uint32_t> moved = std::move(copy);
  CHECK(holds_counting_values(moved));
}

TEST_CASE("core: an UninitializedVector of an impossible size throws bad_alloc-like errors", "[core]") {
  UninitializedAllocator<uint64_t> allocator;
  CHECK_THROWS_AS(allocator.allocate(SIZE_MAX / 8), std::bad_alloc);
  CHECK_THROWS_AS(allocator.allocate(SIZE_MAX / 16), std::bad_alloc);
  UninitializedVector<uint64_t> v;
  CHECK_THROWS_AS(v.resize(SIZE_MAX / 4), std::length_error);
}

}  // namespace
}  // namespace meniscus

#pragma once
// A std::vector whose resize leaves new elements of a trivial type uninitialised: for large
// results that every element of is written by parallel workers anyway, so that one thread does
// not first zero them (and take every page fault) alone.
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

  // Value-initialisation (what resize(n) asks for) becomes default-initialisation.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace meniscus

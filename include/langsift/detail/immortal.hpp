// langsift — detail: an object that is constructed in place and never destroyed, for the library's
// function-local singletons (the built-in models, the URL classifier, the encoding tables).
#pragma once

#include <new>
#include <utility>

namespace langsift {
inline namespace v1 {
namespace detail {

/// Holds a T that is never destroyed (its own destructor is trivial: nothing is registered to run
/// at exit). Threads may still be working when the process exits — a detached thread, a Python
/// daemon thread in the middle of a call, the worker threads of a batch it started — and exit()
/// runs the destructors of function-local statics under them: a destroyed model or table would be
/// freed memory while they read it (a crash at exit). The memory of a singleton is the process's
/// until it ends anyway.
template <class T>
class immortal {
 public:
  template <class... A>
  explicit immortal(A&&... a) noexcept(noexcept(T(std::forward<A>(a)...))) {
    ::new (static_cast<void*>(storage_)) T(std::forward<A>(a)...);
  }
  immortal(const immortal&) = delete;
  immortal& operator=(const immortal&) = delete;

  T& get() noexcept { return *std::launder(reinterpret_cast<T*>(storage_)); }
  const T& get() const noexcept { return *std::launder(reinterpret_cast<const T*>(storage_)); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace detail
}  // namespace v1
}  // namespace langsift

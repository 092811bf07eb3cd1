// langsift._langsift — the GIL: released around long calls, and taken back so that a thread the
// finalizing interpreter ends is parked instead of crashing. Header-only (templates and small
// inline functions): every file that releases the GIL or calls Python without it includes it.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // every file: the STL casters must be the same in all of them

#include <chrono>
#include <cstddef>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#define LANGSIFT_PY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANGSIFT_PY_ASAN 1
#endif
#endif
#if defined(LANGSIFT_PY_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace langsift_py {

// The GIL
//
// Long calls run with the GIL released and take it back at the end. At interpreter exit, CPython
// (before 3.14) ends a thread that asks for the GIL back (a daemon thread still inside langsift)
// with pthread_exit: on glibc a forced unwind (abi::__forced_unwind) that runs the destructors of
// every C++ frame on the thread's stack. Crossing pybind11's gil_scoped_release destructor
// (implicitly noexcept) it called std::terminate ("terminate called without an active exception",
// exit 134); and past it, destructors would drop Python references without the GIL while the
// main thread finalizes. So wherever this module may take the GIL back — the end of a released
// scope (gil_released), a call into Python from work without the GIL (read_warc's file objects), a
// reference dropped in a destructor that may close a file — it does so in parking_if_ended(), which
// parks a thread the interpreter ends: it sleeps until the process exits, touching nothing, as
// CPython 3.14 itself does with such threads (python/cpython#87135). A thread the interpreter does
// not end (the finalizing thread itself, or any thread before finalization) is not affected. The
// objects such threads use are never destroyed (detail::immortal), as exit() may run meanwhile.

[[noreturn]] inline void park_thread() noexcept {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

/// Under AddressSanitizer only: the forced unwind that ended the thread's call crossed frames
/// without ASan unpoisoning them (it unpoisons on a C++ throw, not on glibc's forced unwind), so
/// their redzones stay poisoned below the handler. The noreturn call to park_thread then makes
/// ASan unpoison the stack (__asan_handle_no_return), and gcc 12's runtime does it through the
/// intercepted sigaltstack, whose stack_t lands in one of those stale redzones: a false
/// "stack-buffer-overflow, WRITE of size 24" (seen in test_stress's interpreter-exit test of
/// read_warc over a file object, 4 of 48 exits). The stack below this frame is dead: it is
/// unpoisoned first.
inline void unpoison_dead_stack() noexcept {
#if defined(LANGSIFT_PY_ASAN)
  constexpr std::size_t kDead = 256 * 1024;
  char* const here = static_cast<char*>(__builtin_frame_address(0));
  __asan_unpoison_memory_region(here - kDead, kDead);
#endif
}

/// Runs f, a call into CPython that may take the GIL back (after releasing it, or running Python
/// code that does): if the finalizing interpreter ends the thread there, it is parked instead of
/// unwinding. f calls C functions only and throws no C++ exception of its own, so what can come out
/// of it is the thread's exit: glibc's forced unwind (abi::__forced_unwind), caught with `...` —
/// it is a foreign exception, and binding a reference to it is undefined behaviour (UBSan: null
/// reference) — to park the thread, never to let it run on.
template <class F>
auto parking_if_ended(F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (...) {
    unpoison_dead_stack();
    park_thread();
  }
}

/// PyEval_RestoreThread(ts), except that a thread the finalizing interpreter ends is parked.
inline void restore_thread(PyThreadState* ts) noexcept {
  parking_if_ended([ts] { PyEval_RestoreThread(ts); });
}

/// Py_XDECREF of an object whose deallocation may release the GIL (a file object closing its file),
/// from code that must not unwind (a destructor).
inline void decref_parking(PyObject* o) noexcept {
  parking_if_ended([o] { Py_XDECREF(o); });
}

/// The thread state the innermost gil_released scope of this thread saved (null outside one).
inline constinit thread_local PyThreadState* t_released_state = nullptr;

/// Releases the GIL for its scope (instead of py::gil_scoped_release: see above).
class gil_released {
 public:
  gil_released() noexcept : ts_(PyEval_SaveThread()), outer_(t_released_state) { t_released_state = ts_; }
  ~gil_released() {
    t_released_state = outer_;
    restore_thread(ts_);
  }
  gil_released(const gil_released&) = delete;
  gil_released& operator=(const gil_released&) = delete;

 private:
  PyThreadState* ts_;
  PyThreadState* outer_;
};

/// Runs f (C API calls only, no C++ exception) with the GIL, from work without it: the thread takes
/// the GIL back with the state its gil_released scope saved and releases it again after, so a
/// thread the finalizing interpreter ends is parked (restore_thread). Not PyGILState_Ensure: a
/// daemon thread that calls it late in finalization, after CPython (3.11) has ended its gilstate,
/// gets a null interpreter (PyThreadState_New(NULL): a SEGV at 0x28, seen under ASan in
/// test_stress's interpreter-exit test of read_warc over file objects). Outside a gil_released
/// scope (not a path this module takes) it falls back to PyGILState_Ensure.
template <class F>
auto with_gil_back(F&& f) noexcept -> decltype(f()) {
  PyThreadState* ts = t_released_state;
  return parking_if_ended([&] {
    if (ts == nullptr) {
      const PyGILState_STATE g = PyGILState_Ensure();
      auto r = f();
      PyGILState_Release(g);
      return r;
    }
    PyEval_RestoreThread(ts);
    auto r = f();
    PyEval_SaveThread();
    return r;
  });
}

}  // namespace langsift_py

// langsift — what the CPU running the program can do, for kernels chosen at run time (a build
// for the x86-64 baseline still uses AVX2 where the CPU has it).
#pragma once

/// Defined where LANGSIFT_CPU_HAS_AVX2() can be asked and `__attribute__((target("avx2")))`
/// kernels compiled: x86-64 with GCC or Clang.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LANGSIFT_AVX2_DISPATCH 1
#endif

namespace langsift {
inline namespace v1 {
namespace detail {

#if defined(LANGSIFT_AVX2_DISPATCH)
/// True if the CPU running the program has AVX2 (asked once).
inline bool cpu_has_avx2() noexcept {
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") != 0);
  return yes;
}
#endif

}  // namespace detail
}  // namespace v1
}  // namespace langsift

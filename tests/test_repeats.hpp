#pragma once
// How many times a randomised test repeats its work. The sanitizer build (the debug preset, -O0
// with ASan and UBSan) runs such loops about ten times slower than the release build; a fifth of
// the repetitions there still draws every kind of case the loop draws, and the sanitizers watch
// the same code. The release suite runs them all. ARBITER_SANITIZED_BUILD is set, in sanitizer
// builds, on the files that include this header (their folder's CMakeLists.txt).
namespace arb::testing {

#ifdef ARBITER_SANITIZED_BUILD
inline constexpr int kRepeatDivisor = 5;
#else
inline constexpr int kRepeatDivisor = 1;
#endif

}  // namespace arb::testing

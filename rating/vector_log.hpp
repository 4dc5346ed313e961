#pragma once
// Doubles two or four at a time (the compiler's vector extension: SSE2 on any x86-64, AVX2
// where the processor has it, NEON on arm64) and a natural logarithm over them, for the rating
// kernels that take millions of logarithms.
//
// The logarithm is the classic reduction x = 2^k m, m in [sqrt(2)/2, sqrt(2)), and the minimax
// series in s = (m - 1) / (m + 1) with the coefficients of the freely distributable fdlibm
// (Sun, 1993); its error is below one unit in the last place, like the C library's. Plain IEEE
// operations only, no fused multiply-add: the same bits on every machine, lane width and compiler.
// Defined for positive normal finite x (the kernels' arguments are sums of positive terms).
#include <cstdint>

namespace arb::rating {

using Double2 = double __attribute__((vector_size(16)));
using Double4 = double __attribute__((vector_size(32)));
// Unsigned: SSE2 shifts 64-bit lanes logically only.
using Bits2 = std::uint64_t __attribute__((vector_size(16)));
using Bits4 = std::uint64_t __attribute__((vector_size(32)));

template <typename Vec>
struct LaneBits;
template <>
struct LaneBits<Double2> {
    using type = Bits2;
};
template <>
struct LaneBits<Double4> {
    using type = Bits4;
};

// Always inlined, so that a caller compiled for AVX2 gets it in AVX2 too; and only builtins
// inside (__builtin_bit_cast, not std::bit_cast): a library function left uninlined, as at -O0,
// is compiled for the plain target and takes a 32-byte vector the other way (wrong values).
template <typename Vec>
[[gnu::always_inline]] inline Vec vector_log(Vec x) {
    using Bits = typename LaneBits<Vec>::type;
    constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kLg1 = 6.666666666666735130e-01, kLg2 = 3.999999999940941908e-01,
                     kLg3 = 2.857142874366239149e-01, kLg4 = 2.222219843214978396e-01,
                     kLg5 = 1.818357216161805012e-01, kLg6 = 1.531383769920937332e-01,
                     kLg7 = 1.479819860511658591e-01;
    constexpr std::uint64_t kMantissa = 0x000FFFFFFFFFFFFF, kOneBits = 0x3FF0000000000000;
    constexpr std::uint64_t kTwo52Bits = 0x4330000000000000;  // 2^52: its low bits hold an integer
    constexpr double kTwo52PlusBias = 4503599627370496.0 + 1023.0;
    constexpr double kSqrt2 = 1.41421356237309504880;

    const Bits bits = __builtin_bit_cast(Bits, x);
    // The biased exponent as a double: 2^52 + e read as a double, minus 2^52 and the bias.
    Vec k = __builtin_bit_cast(Vec, (bits >> 52) | kTwo52Bits) - kTwo52PlusBias;
    Vec m = __builtin_bit_cast(Vec, (bits & kMantissa) | kOneBits);  // [1, 2)
    const Bits above = __builtin_bit_cast(Bits, m > kSqrt2);         // all ones where m moves to [sqrt(2)/2, 1)
    m = __builtin_bit_cast(Vec, (__builtin_bit_cast(Bits, m) & ~above) | (__builtin_bit_cast(Bits, m * 0.5) & above));
    k += __builtin_bit_cast(Vec, __builtin_bit_cast(Bits, Vec{} + 1.0) & above);

    const Vec f = m - 1.0;
    const Vec half_f_squared = 0.5 * f * f;
    const Vec s = f / (2.0 + f);
    const Vec z = s * s;
    const Vec w = z * z;
    const Vec even = w * (kLg2 + w * (kLg4 + w * kLg6));
    const Vec odd = z * (kLg1 + w * (kLg3 + w * (kLg5 + w * kLg7)));
    const Vec r = odd + even;
    return k * kLn2Hi - ((half_f_squared - (s * (half_f_squared + r) + k * kLn2Lo)) - f);
}

}  // namespace arb::rating

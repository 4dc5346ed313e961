#pragma once
// The project's own random number generator. Results must reproduce across compilers and
// standard libraries, so nothing here uses <random>'s distributions or std::shuffle.
//
// Generator: xoshiro256** (Blackman & Vigna), seeded through splitmix64.
// Bounded draws: Lemire's multiply-and-reject method, unbiased.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <utility>

namespace arb {

class Rng {
public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t next_u64();
    // Uniform integer in [0, bound). bound must be > 0.
    std::uint64_t below(std::uint64_t bound);
    // Uniform integer in [lo, hi] (inclusive).
    std::int64_t between(std::int64_t lo, std::int64_t hi);
    // Uniform double in [0, 1) with 53 random bits.
    double unit();

    // Fisher-Yates from the last element down, with below().
    template <class T>
    void shuffle(std::span<T> items) {
        for (std::size_t i = items.size(); i > 1; --i) {
            std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(items[i - 1], items[j]);
        }
    }

private:
    std::uint64_t s_[4];
};

// A child seed from a parent seed and a path of integers, e.g. derive_seed(tournament, {round, deal}).
// Stable: the same inputs give the same seed on every platform.
std::uint64_t derive_seed(std::uint64_t parent, std::initializer_list<std::uint64_t> path);

}  // namespace arb

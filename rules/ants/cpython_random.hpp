#pragma once
// CPython's `random` module generator (MT19937 with CPython >= 3.2 seeding and derived draws),
// so a C++ engine can make the original engine's random calls and get the same numbers
// (ants.md section 9, level C). Facts used: seeding an int = init_by_array over the 32-bit
// little-endian words of |seed|; random() = (a>>5, b>>6) 53-bit float; getrandbits(k <= 32) =
// top k bits of one output; _randbelow(n) = getrandbits(bit_length(n)) until < n.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace arb::ants {

class CPythonRandom {
public:
    explicit CPythonRandom(std::int64_t seed);
    std::uint32_t genrand_uint32();
    double random();
    std::uint32_t getrandbits(int k);           // 0 <= k <= 32
    std::uint64_t randbelow(std::uint64_t n);   // n > 0, n < 2^32
    std::int64_t randrange(std::int64_t start, std::int64_t stop);
    template <class T>
    void shuffle(std::vector<T>& x) {
        for (std::size_t i = x.size(); i-- > 1;) std::swap(x[i], x[randbelow(i + 1)]);
    }

private:
    void init_genrand(std::uint32_t s);
    void init_by_array(const std::vector<std::uint32_t>& key);
    std::array<std::uint32_t, 624> mt_{};
    int mti_ = 625;
};

// The iteration order CPython gives `list(set(locations))` for (row, col) tuples of small
// non-negative ints (tuple hash of CPython 3.8+, set probing of CPython 3.11).
std::vector<std::pair<int, int>> python_set_order(const std::vector<std::pair<int, int>>& items);

}  // namespace arb::ants

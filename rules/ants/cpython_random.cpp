#include "rules/ants/cpython_random.hpp"

#include <bit>

namespace arb::ants {
namespace {
constexpr int kN = 624, kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU, kUpper = 0x80000000U, kLower = 0x7fffffffU;
}  // namespace

CPythonRandom::CPythonRandom(std::int64_t seed) {
    // |seed| as little-endian 32-bit words; 0 gives the key [0].
    std::uint64_t n = seed < 0 ? 0 - static_cast<std::uint64_t>(seed) : static_cast<std::uint64_t>(seed);
    std::vector<std::uint32_t> key;
    while (n) {
        key.push_back(static_cast<std::uint32_t>(n & 0xffffffffU));
        n >>= 32;
    }
    if (key.empty()) key.push_back(0);
    init_by_array(key);
}

void CPythonRandom::init_genrand(std::uint32_t s) {
    mt_[0] = s;
    for (mti_ = 1; mti_ < kN; ++mti_)
        mt_[mti_] = 1812433253U * (mt_[mti_ - 1] ^ (mt_[mti_ - 1] >> 30)) + static_cast<std::uint32_t>(mti_);
}

void CPythonRandom::init_by_array(const std::vector<std::uint32_t>& key) {
    init_genrand(19650218U);
    int i = 1, j = 0;
    const int len = static_cast<int>(key.size());
    for (int k = kN > len ? kN : len; k; --k) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<std::uint32_t>(j);
        ++i;
        ++j;
        if (i >= kN) { mt_[0] = mt_[kN - 1]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = kN - 1; k; --k) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<std::uint32_t>(i);
        ++i;
        if (i >= kN) { mt_[0] = mt_[kN - 1]; i = 1; }
    }
    mt_[0] = 0x80000000U;
    mti_ = kN;
}

std::uint32_t CPythonRandom::genrand_uint32() {
    if (mti_ >= kN) {
        auto twist = [&](int kk, int next, int far) {
            const std::uint32_t y = (mt_[kk] & kUpper) | (mt_[next] & kLower);
            mt_[kk] = mt_[far] ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
        };
        int kk = 0;
        for (; kk < kN - kM; ++kk) twist(kk, kk + 1, kk + kM);
        for (; kk < kN - 1; ++kk) twist(kk, kk + 1, kk + (kM - kN));
        twist(kN - 1, 0, kM - 1);
        mti_ = 0;
    }
    std::uint32_t y = mt_[mti_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

double CPythonRandom::random() {
    const std::uint32_t a = genrand_uint32() >> 5, b = genrand_uint32() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

std::uint32_t CPythonRandom::getrandbits(int k) {
    if (k <= 0) return 0;
    return genrand_uint32() >> (32 - k);
}

std::uint64_t CPythonRandom::randbelow(std::uint64_t n) {
    const int k = std::bit_width(n);
    std::uint64_t r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
}

std::int64_t CPythonRandom::randrange(std::int64_t start, std::int64_t stop) {
    return start + static_cast<std::int64_t>(randbelow(static_cast<std::uint64_t>(stop - start)));
}

std::vector<std::pair<int, int>> python_set_order(const std::vector<std::pair<int, int>>& items) {
    constexpr std::uint64_t kP1 = 11400714785074694791ULL, kP2 = 14029467366897019727ULL,
                            kP5 = 2870177450012600261ULL;
    auto tuple_hash = [&](const std::pair<int, int>& t) {
        std::uint64_t acc = kP5;
        for (std::uint64_t lane : {static_cast<std::uint64_t>(t.first), static_cast<std::uint64_t>(t.second)}) {
            acc += lane * kP2;
            acc = std::rotl(acc, 31);
            acc *= kP1;
        }
        acc += 2ULL ^ (kP5 ^ 3527539ULL);
        if (acc == ~0ULL) acc = 1546275796ULL;
        return acc;
    };
    struct Slot { bool used = false; std::uint64_t hash = 0; std::pair<int, int> key; };
    constexpr std::uint64_t kLinearProbes = 9, kPerturbShift = 5;
    std::vector<Slot> table(8);
    std::size_t fill = 0;
    // set_insert_clean: used when a table is rebuilt
    auto insert_clean = [&](std::vector<Slot>& t, const Slot& s) {
        const std::uint64_t mask = t.size() - 1;
        std::uint64_t perturb = s.hash, i = s.hash & mask;
        while (true) {
            if (!t[i].used) { t[i] = s; return; }
            if (i + kLinearProbes <= mask)
                for (std::uint64_t j = 1; j <= kLinearProbes; ++j)
                    if (!t[i + j].used) { t[i + j] = s; return; }
            perturb >>= kPerturbShift;
            i = (i * 5 + 1 + perturb) & mask;
        }
    };
    for (const auto& item : items) {
        const std::uint64_t hash = tuple_hash(item);
        const std::uint64_t mask = table.size() - 1;
        std::uint64_t perturb = hash, i = hash & mask;
        bool present = false;
        std::uint64_t at = 0;
        while (true) {
            const std::uint64_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
            bool found = false;
            for (std::uint64_t j = 0; j <= probes; ++j) {
                const Slot& e = table[i + j];
                if (!e.used) { at = i + j; found = true; break; }
                if (e.hash == hash && e.key == item) { present = true; found = true; break; }
            }
            if (found) break;
            perturb >>= kPerturbShift;
            i = (i * 5 + 1 + perturb) & mask;
        }
        if (present) continue;
        table[at] = {true, hash, item};
        ++fill;
        if (fill * 5 >= mask * 3) {  // set_table_resize(used * 4)
            std::size_t size = 8;
            while (size <= fill * 4) size <<= 1;
            std::vector<Slot> bigger(size);
            for (const auto& s : table)
                if (s.used) insert_clean(bigger, s);
            table = std::move(bigger);
        }
    }
    std::vector<std::pair<int, int>> out;
    for (const auto& s : table)
        if (s.used) out.push_back(s.key);
    return out;
}

}  // namespace arb::ants

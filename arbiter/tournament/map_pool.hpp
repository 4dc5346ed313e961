#pragma once
// A pool of maps (or fields) for a tournament or a ladder, as the AI Challenge drew each game's
// map from a pool and fastchess draws openings from a book. The pool's order is the seed's; every
// match of a round plays the round's map, in every seating (an opening played with -repeat), and
// the map is part of the stored schedule, so a resumed run or a match job plays the planned one.
//
// Player counts: a map may say how many bots it seats (Ants: 2 to 10). Rounds then cycle through
// the pool's counts in ascending order (round r plays count r mod C), so every count gets the same
// number of rounds; each count's maps come in the seed's order, cycling. A round of count k cuts
// the bots into groups of k; when k does not divide their number, the few left over sit that
// round out, taken in turn from an order the seed fixes, so nobody sits out twice before everyone
// has once.
#include <cstdint>
#include <string>
#include <vector>

#include "rules/game.hpp"

namespace arb::tournament {

struct PoolMap {
    std::string path;  // absolute, as the match request names it
    int players = 0;   // the bots it seats; 0 = any count the game takes (the tournament's)

    friend bool operator==(const PoolMap&, const PoolMap&) = default;
};

// The files named by `sources`, each a file, a folder (its files, hidden ones left out) or a glob
// (`maps/*_02p_*.map`), relative ones taken from `base`; sorted by path, each once, with the
// player count the game reads from it. `where` names the sources in messages ("--maps",
// "FILE:LINE"). UserError for a file that is missing or not the game's, a folder with no file, a
// glob that matches nothing, and an empty pool.
std::vector<PoolMap> expand_map_pool(const std::vector<std::string>& sources, const std::string& base,
                                     const MapFiles& files, const std::string& where);

// The pool (sorted by path) in the order the seed gives it.
std::vector<PoolMap> pool_in_seed_order(std::vector<PoolMap> pool, std::uint64_t seed);

// The distinct player counts of a pool, ascending (empty when no map fixes one).
std::vector<int> player_counts(const std::vector<PoolMap>& pool);

struct RoundMap {
    std::string path;
    int players = 0;  // 0 = the tournament's count
    int visit = 0;    // earlier rounds of the same player count
};
// The map of round `round` from a pool in seed order.
RoundMap map_of_round(const std::vector<PoolMap>& seeded, int round);

// The participants (indices below n) who sit out a round of groups of `size`, the visit-th round
// of that size: n mod size of them, in turn from an order the seed fixes per size. Ascending.
std::vector<int> sitting_out(int n, int size, int visit, std::uint64_t seed);

// A pool map's name in tables and records: its file name.
std::string map_name(const std::string& path);

}  // namespace arb::tournament

#pragma once
// Ants map files in the original text format (ants.md section 6): `rows R`, `cols C`,
// `players N`, then R lines `m <C chars>`. Only water and hills matter for a normal game.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arb::ants {

struct HillSpec {
    int row = 0;
    int col = 0;
    int owner = 0;
};

struct AntsMap {
    int rows = 0;
    int cols = 0;
    int players = 0;
    std::vector<std::uint8_t> water;  // rows*cols, 1 = water
    // In the original's insertion order: by owner in order of first appearance in the map,
    // then row-major within an owner (ants.md section 9, "hill order").
    std::vector<HillSpec> hills;
    // Only used by scenario games (--scenario): the map's ants (letters; an upper-case letter is
    // an ant on its hill), grouped by owner like the hills, and its food squares, row-major.
    std::vector<HillSpec> scenario_ants;
    std::vector<int> scenario_food;
};

// Sides of a map (rows, columns): the contest's maps are at most 200; a 1000x1000 map already
// costs its engine about 100 MiB.
inline constexpr int kMaxMapSide = 1000;
// The largest map file read (a 1000x1000 map is about 1 MiB).
inline constexpr std::size_t kMaxMapBytes = std::size_t{16} << 20;

// Parses map text. Throws UserError naming `source` and the line on any format error.
AntsMap parse_map(std::string_view text, const std::string& source);
// Reads and parses a map file; UserError if it cannot be read.
AntsMap load_map_file(const std::string& path);

}  // namespace arb::ants

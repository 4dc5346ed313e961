#pragma once
// Small helpers shared by the Ants tests: where the bots, maps and recordings are, scratch
// folders, whole-file reads, scenario boards, and a line-by-line comparison that names the
// first differing line (the protocol texts are thousands of lines long).

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_scratch.hpp"

namespace arb::ants::test {

inline const std::filesystem::path kBots = std::filesystem::path(ARBITER_BINARY_DIR) / "bots/ants";
inline const std::filesystem::path kMaps = std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/maps";
inline const std::filesystem::path kReplays = std::filesystem::path(ARBITER_SHARED_DIR) / "data/ants/replays";

// A folder of this test process (kept across calls with the same name).
inline std::filesystem::path temp_dir(const std::string& name) {
    auto dir = arb::testing::scratch_root() / ("ants-" + name);
    std::filesystem::create_directories(dir);
    return dir;
}

// The whole file; empty if it cannot be read (the comparisons then fail and say so).
inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// Map text in the original format for a scenario board (rows of 'm' lines).
inline std::string scenario_map_text(int players, const std::vector<std::string>& rows) {
    std::string text = "rows " + std::to_string(rows.size()) + "\ncols " + std::to_string(rows[0].size()) +
                       "\nplayers " + std::to_string(players) + "\n";
    for (const auto& r : rows) text += "m " + r + "\n";
    return text;
}

// "" when the texts have the same lines, else where and how they first differ.
inline std::string first_line_difference(const std::string& expected_text, const std::string& got_text) {
    const auto expected = split_lines(expected_text), got = split_lines(got_text);
    std::size_t i = 0;
    while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
    if (i == expected.size() && i == got.size()) return "";
    return "first difference at line " + std::to_string(i + 1) + ": expected '" +
           (i < expected.size() ? expected[i] : "<end>") + "', got '" + (i < got.size() ? got[i] : "<end>") + "'";
}

}  // namespace arb::ants::test

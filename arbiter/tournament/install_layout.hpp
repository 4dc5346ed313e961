#pragma once
// Where the sample bots and the games' maps and fields are, for ${ARBITER_BOTS} and
// ${ARBITER_DATA} in bot specs and configs: where `cmake --install` put them beside the arbiter
// (<prefix>/lib/arbiter/bots, <prefix>/share/arbiter/data), else the build tree's (<build>/bots,
// the shared data folder beside the sources).
#include <filesystem>

namespace arb::tournament {

std::filesystem::path sample_bots_dir();
std::filesystem::path game_data_dir();

}  // namespace arb::tournament

#pragma once
// Private to the Ants engine's source files (ants_engine.cpp, ants_phases.cpp, ants_battle.cpp,
// ants_game_end.cpp, ants_bot_text.cpp, ants_replaydata.cpp): score constants and the small
// helpers several of them call inside per-ant loops, kept inline so those loops stay tight.
#include <algorithm>
#include <cstdlib>

#include "rules/ants/ants_engine.hpp"

namespace arb::ants::engine_detail {

inline constexpr int kHillPoints = 2;   // ants.md section 4: razing an enemy hill
inline constexpr int kRazePoints = -1;  // losing an own hill (or crashing with it)

// Squared distance between squares a and b on a rows x cols torus.
inline int torus_distance2(int rows, int cols, int a, int b) {
    int dr = std::abs(a / cols - b / cols);
    dr = std::min(dr, rows - dr);
    int dc = std::abs(a % cols - b % cols);
    dc = std::min(dc, cols - dc);
    return dr * dr + dc * dc;
}

}  // namespace arb::ants::engine_detail

namespace arb::ants {

// Called per dying ant by the move and battle phases.
inline void AntsEngine::kill_ant(int a) {
    Ant& ant = ants_[a];
    ant.die_turn = turn_;
    if (ant_at_[ant.cell] == a) ant_at_[ant.cell] = -1;
    killed_ants_.push_back(a);
    --ant_count_[ant.owner];
}

}  // namespace arb::ants

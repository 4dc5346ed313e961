#pragma once
// Replaying a recorded Ants game (ants_replay.hpp) through our engine: `arbiter verify ants`
// (ants.md section 11, level A, and the seed-exact level C).
#include <filesystem>
#include <functional>

#include "rules/ants/ants_engine.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/game.hpp"

namespace arb::ants {

// What a replay calls back, for the benchmark that times it: just before the engine is set up
// (after the recording is read), after turn 0, before each turn (where a referee builds every
// live bot's state text), and after the last turn (before the end state is compared).
struct ReplayHooks {
    std::function<void()> setup_begins;
    std::function<void(AntsEngine&)> started;
    std::function<void(AntsEngine&)> before_turn;
    std::function<void(AntsEngine&)> finished;
    bool compare_each_turn = true;  // false: only the end state (timing runs)
};

// Plays the recording through the engine: its orders as order lines, and its crashes, timeouts
// and invalid-order put-outs (status and playerturns) at their turns. Compares every turn and
// the whole end state (replaydata's ants, food, hills, scores, hive, bonus, cutoff, winning and
// ranking turn, final map rendering; game_length, score, rank, status, playerturns); ok only
// with zero differences. `steps` = turns compared.
// seed_exact (level C): instead of injecting the recorded food, draw the food parameters, the
// symmetric food and the spawn tie-breaks from a CPython-compatible generator seeded with the
// recorded engine_seed, making the original's random calls in its order (ants.md section 9).
VerifyOutcome verify_recorded_game(const RecordedGame& game, bool seed_exact = false, const ReplayHooks& hooks = {});
VerifyOutcome verify_replay_file(const std::filesystem::path& path);

}  // namespace arb::ants

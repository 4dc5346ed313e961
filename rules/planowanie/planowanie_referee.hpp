#pragma once
// The Planowanie protocol over an arb::Table (seed 000, "Protokół"; framing per planowanie.md
// section 3.2 and RULINGS.md "Planowanie").
//
// Command sequence, per seat:
//   set_deck V C / set_players n i / set_game d c1 s1 ... cd sd
//   for each deal:
//     set_cards c K1 ... Kc
//     time_left t, gen_declare                 (all seats at once: declarations are simultaneous)
//     declare i l                              (for every player i = 0..n-1)
//     until the deal is over:
//       time_left t, gen_move                  (only the seat whose turn it is)
//       play i K                               (to every seat, the player's own card included)
//   quit                                       (or nothing, when the game is set to kill)
// Every command is answered GTP-style: '=' or '?', the result, then an empty line
// (planowanie_protocol.hpp). Every reply is waited for and charged to the seat's clock.
//
// Adjudication (seed, "Przebieg turnieju"; RULINGS.md): an illegal declaration or card, a '?'
// to gen_declare / gen_move, a crash or a timeout ends the match at once. The faulty seat loses
// to each other seat; no result is recorded between the others. Scores are the points of the
// completed deals.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/seat.hpp"
#include "rules/game.hpp"
#include "rules/planowanie/planowanie_engine.hpp"

namespace arb::planowanie {

struct RefereeSettings {
    Config config;
    std::uint64_t deal_seed = 1;
    bool send_quit = true;           // seed's tester sends `quit`; the tournament judge just kills
    std::filesystem::path log_path;  // the game log (planowanie_replay.hpp); empty = none
    std::filesystem::path live_replay;  // the log so far, as it plays (rules/live_replay.hpp); empty = none
};

// Plays one match. Bot faults are results, never exceptions.
RefereeResult run_referee(const RefereeSettings& settings, Table& table);

}  // namespace arb::planowanie

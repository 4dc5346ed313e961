#pragma once
// The SamurAI referee: turns the engine into the official protocol over a Table.
//
// A match is two games on one field with the teams' positions swapped (rules.html "Match",
// RULINGS.md); the match score of a bot is its gold summed over both games. Each game has four
// processes, each team's program started twice (samurai and dog). As in the official manager,
// a process learns which agent it controls from line 1 of every state message (rules.html
// "Player Processes"), so nothing is passed on the command line.
//
// Seats: 8 per match, seat = 4 * game + agent id. Bot 0 plays team 0 (agents 0 and 2) in game 1
// and team 1 (agents 1 and 3) in game 2; bot 1 the other way round. Seats of game 2 are started
// with the match and wait, unasked, until game 2 starts.
//
// Each step every live agent gets the 13-line state text at the same time (ask_all) and answers
// one line holding one integer. Think time is the table's total budget per process (thinkTime ms,
// no polling floor, RULINGS.md). A timeout or crash retires the seat: that agent's plan is -1
// for the rest of the game (rules.html "Think Time Limit"). A reply that is not an integer is an
// invalid plan: -1 for that step (rules.html), counted in the participant's detail.
#include <array>
#include <functional>
#include <filesystem>
#include <string>
#include <vector>

#include "rules/game.hpp"
#include "rules/samurai/samurai_replay.hpp"

namespace arb::samurai {

inline constexpr int kGamesPerMatch = 2;
inline constexpr int kSeatsPerMatch = kGamesPerMatch * kAgents;

// Which bot (0 or 1) controls agent `agent` in game `game` (0 or 1).
inline int bot_of_agent(int game, int agent) { return game == 0 ? team_of(agent) : 1 - team_of(agent); }

// Where the log of game `game` goes: the given path for game 1, "<stem>-game2<ext>" for game 2.
std::filesystem::path game_log_path(const std::filesystem::path& log_path, int game);

// One agent's trouble in a game.
struct AgentFault {
    SeatStatus status = SeatStatus::ok;  // crashed / timeout / killed when its seat was retired
    std::string reason;                  // the table's reason for a kill (memory, line length)
    int step = -1;                       // step of the failed reply
    int unparsable_replies = 0;          // replies that were not one integer
};

struct GameOutcome {
    GameLog log;
    std::array<int, 2> scores{};  // per team, as in the log
    std::array<AgentFault, kAgents> faults{};
    bool all_gold_dug = false;
};

// Called after each step of a game with the step's frame and the game's log so far.
using StepPlayed = std::function<void(int frame, const GameLog& so_far)>;

// Plays one game with agent a on table seat first_seat + a. Bot faults are results.
GameOutcome play_game(const Field& field, Table& table, int first_seat, int first_step = 0,
                      const StepPlayed& step_played = {});

// The match descriptor's parts.
Field load_match_field(const MatchRequest& request);  // the field option, total-time-ms override applied
std::vector<SeatPlan> plan_match(const MatchRequest& request);
RefereeResult referee_match(const MatchRequest& request, Table& table);

}  // namespace arb::samurai

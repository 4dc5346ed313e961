#pragma once
// SamurAI Dig Here (SamurAI Coding 2019-20, IPSJ): the pure rules engine.
//
// Two teams, each a samurai and a dog, on a square field of cells with holes and buried gold.
// Every step the four agents send a plan at the same time (one integer: -1 stay, 0-7 move,
// 8-15 dig, 16-23 plug toward direction m mod 8); the engine turns plans into actions, moves
// agents, digs and plugs holes, lets dogs bark on hidden gold and scores dug gold per team.
// Sources: seed 003 (rules.html) and ../shared/rules/samurai.md section 2 (the official manager
// as built and run), which this engine follows step for step, including its list orders (Q3)
// and its direction quirk (Q2). RULINGS.md "SamurAI Dig Here": invalid plans are recorded as -1.
//
// Agent ids: 0 = samurai of team 0, 1 = samurai of team 1, 2 = dog of team 0, 3 = dog of team 1.
// Coordinates: x is the first coordinate, 0 .. size-1.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arb::samurai {

inline constexpr int kAgents = 4;
inline constexpr int kStay = -1;          // plan/action "stay" (rules.html "Play Plans and Actions")
inline constexpr int kFirstDig = 8;       // 8..15 dig toward m mod 8
inline constexpr int kFirstPlug = 16;     // 16..23 plug toward m mod 8
inline constexpr int kPlanLimit = 24;     // plans >= 24 are invalid

// (dx, dy) for direction d = 0..7: 0 = +y, then clockwise in 45 degree steps (samurai.md 2.1).
inline constexpr std::array<std::array<int, 2>, 8> kDirectionOffsets = {
    {{0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}}};

inline bool is_samurai(int agent) { return agent < 2; }
inline int team_of(int agent) { return agent % 2; }

struct Cell {
    int x = 0;
    int y = 0;
    friend bool operator==(const Cell&, const Cell&) = default;
};

struct Gold {
    Cell cell;
    int amount = 0;
    friend bool operator==(const Gold&, const Gold&) = default;
};

struct Agent {
    Cell cell;
    int direction = 0;  // 0..7, cosmetic but logged (samurai.md Q2)
    friend bool operator==(const Agent&, const Agent&) = default;
};

// The initial configuration of a game: the "field" object of a .dighere file (samurai.md 1.2).
struct Field {
    int size = 0;
    int steps = 0;
    std::int64_t think_time_ms = 0;    // budget of each of the four agent processes
    std::array<Agent, kAgents> agents{};
    std::vector<Cell> holes;
    std::vector<Gold> known;            // visible to everybody
    std::vector<Gold> hidden;           // sensed only by dogs next to it

    friend bool operator==(const Field&, const Field&) = default;
};

using Plans = std::array<int, kAgents>;

// Everything that changes during a game. Lists keep the manager's internal order (Q3), which
// the state message and therefore the bots see.
struct GameState {
    int step = 0;                       // steps played so far = index of the next step
    std::array<Agent, kAgents> agents{};
    std::vector<Cell> holes;
    std::vector<Gold> known;
    std::vector<Gold> hidden;
    std::array<int, 2> scores{0, 0};
    Plans last_plans{kStay, kStay, kStay, kStay};    // as recorded: invalid plans already -1
    Plans last_actions{kStay, kStay, kStay, kStay};

    friend bool operator==(const GameState&, const GameState&) = default;
};

// What one step did, for logs and the referee.
struct StepRecord {
    int step = 0;
    Plans plans{};       // recorded plans: invalid ones replaced by -1 (rules.html, RULINGS.md)
    Plans actions{};
    std::array<Agent, kAgents> agents{};   // after the step
    std::array<int, 2> scores{};           // cumulative, after the step
};

GameState initial_state(const Field& field);

// Total gold of the initial configuration (known + hidden).
int total_gold(const Field& field);
// Gold still buried now (known + hidden), the "remaining treasure" line (Q5).
int remaining_gold(const GameState& state);

// The game stops before a step when every step has been played or the two scores add up to the
// initial total (samurai.md 2.4).
bool game_over(const Field& field, const GameState& state);

// rules.html: a samurai plan other than -1 or an even 0..22, or a dog plan outside -1..7, is
// invalid and recorded as -1. The raw value is a 64-bit integer so out-of-range replies and
// log values stay invalid instead of wrapping.
int recorded_plan(int agent, std::int64_t raw_plan);

// Plays one step from raw plans (samurai.md 2.2, phases A, B, C) and returns what happened.
StepRecord play_step(const Field& field, GameState& state, const std::array<std::int64_t, kAgents>& raw_plans);

// Hidden gold in the 8 cells around a dog (not its own cell), ordered by direction 0..7
// (samurai.md 2.3). Samurai sense nothing.
std::vector<Gold> sensed_gold(const GameState& state, int size, int agent);

}  // namespace arb::samurai

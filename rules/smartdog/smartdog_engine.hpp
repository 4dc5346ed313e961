#pragma once
// smart-dog (Actimind AI contest, 2012): the pure rules engine.
//
// Players herd sheep into their pens with dogs on a torus board made of copies of one map tile
// (one tile per player, empty grass tiles between them). Every turn each player moves and barks
// with its dogs; then sheep move (scared ones first, then the rest, then fear spreads) and the
// dogs' fear counters update. Sources: seed 004 (the rules page) and ../shared/rules/smartdog.md
// (the original server read and run), which this engine follows step for step: creation order
// for every loop over objects, the nudge recursion, the fear chain, wrapped Euclidean radii.
//
// Coordinates: x is the column, y the row, both wrapped modulo the board size.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arb::smartdog {

enum class Dir : std::uint8_t { up, down, left, right };

const char* dir_name(Dir d);
std::optional<Dir> parse_dir(std::string_view text);

// The seed: "a two-dimensional map of 2x2 to 1000x1000 cells" (the whole board).
inline constexpr int kMinBoardSide = 2;
inline constexpr int kMaxBoardSide = 1000;

// The game options the original server sends in `start`, in its order (smartdog.md 3).
struct Params {
    int wait_for_turn = 300000;  // ms
    int visibility_r = 4;
    int barking_r = 4;
    int sheep_stand_by = 4;
    int sheep_scary_turns = 1;
    int turns_limit = 100;
    int dog_scary_turns = 4;
};

// One player's tile as read from a map file: rows of . # ^ - @ * o, and the overrides of its
// JSON line (smartdog.md 2).
struct Tile {
    int width = 0;
    int height = 0;
    std::vector<std::string> rows;
    Params params;
    std::string origin;           // the map file, for messages
    std::vector<int> row_lines;   // the file's line number of each row
};

// Throws UserError with a one-line reason naming the map and line for a malformed map (ragged
// rows, unknown cells, bad options, a tile over 1000 cells a side).
Tile parse_tile(std::string_view text, const std::string& origin);
// The bounds the seed states for a game of `players` (UserError, one line naming the map, the
// line and the rule): the board of 2..1000 cells a side, at least one dog and one sheep per
// player, a pen to gather them in, every pen a rectangle.
void check_seed_bounds(const Tile& tile, int players);
// The board-size bound alone (the engine's own guard: a board is never built larger).
void check_board_size(const Tile& tile, int players);

struct Territory {
    int x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // inclusive
    bool contains(int x, int y) const { return x1 <= x && x <= x2 && y1 <= y && y <= y2; }
};

struct Dog {
    int id = 0;
    int owner = 0;  // player 1..P
    int x = 0, y = 0;
    int scared = 0;               // turns of fear left; > 0 disables barking (and moving in panic)
    bool only_silence = false;    // the last enemy bark came from inside our territory
    bool moved = false;
    bool just_barked = false;     // this turn
    bool barking = false;         // last turn: heard by everybody in this turn's snapshot
    bool ally_barked = false;
    bool just_became_scared = false;
};

struct Sheep {
    int x = 0, y = 0;
    Dir dir = Dir::down;
    bool scared = false;          // has a fear source
    int fear = 0;                 // turns of fear left
    std::vector<int> chain;       // sheep (indices) its fear passed through; dogs never matter
    bool moved = false;
    bool nudged = false;          // re-entrancy guard of the nudge recursion
};

class Engine {
public:
    Engine(const Tile& tile, int players);

    int width() const { return width_; }
    int height() const { return height_; }
    int players() const { return players_; }
    int turn() const { return turn_; }  // internal turn t = 0, 1, ...; the wire shows t + 1
    const Params& params() const { return params_; }
    const Territory& territory(int player) const { return territories_[player - 1]; }
    int initial_in_pen() const { return initial_in_pen_; }   // I
    int sheep_per_tile() const { return sheep_per_tile_; }   // M
    const std::vector<Dog>& dogs() const { return dogs_; }
    const std::vector<Sheep>& sheep() const { return sheep_; }
    std::vector<std::string> landscape_rows() const;  // the board with pens as owner digits

    // Turn steps, in the server's order (smartdog.md 4).
    void begin_turn();                              // before-turn; the first call starts turn 0
    std::vector<std::string> snapshot(int player) const;  // the `obj` field lists, wire order
    // A player's command; returns the warning text or "" when it took effect.
    std::string command(int player, const std::vector<std::string>& words);
    std::string move(int player, const std::string& id, const std::string& direction);
    std::string bark(int player, const std::string& id);
    bool end_turn();                                // after-turn; true when the game is over
    bool over() const { return over_; }

    // Scores (smartdog.md 7) and the winner (0 = none), ties to the lowest id.
    double score(int player) const;
    int winner(const std::vector<bool>& eliminated = {}) const;

private:
    int cell(int x, int y) const { return wrap_y(y) * width_ + wrap_x(x); }
    int wrap_x(int x) const { return ((x % width_) + width_) % width_; }
    int wrap_y(int y) const { return ((y % height_) + height_) % height_; }
    int delta(int from, int to, int size) const;
    int distance2(int x1, int y1, int x2, int y2) const;
    bool walkable_free(int c) const;
    bool is_pen(int c) const { return land_[c] >= kPenBase; }
    Dog* own_dog(int player, const std::string& id);
    void do_bark(int dog_index);

    bool sheep_due(const Sheep& s) const;
    bool try_step(int s, Dir d, bool may_push);
    void nudge(int s);
    void move_sheep(int s, bool preliminary);
    void fear_check(int s);
    void place(int s, int x, int y);

    static constexpr std::int8_t kGrass = 0, kWall = 1, kTree = 2, kPenBase = 10;
    static constexpr int kEmpty = -1;
    static int sheep_code(int s) { return -2 - s; }

    Params params_;
    int players_ = 0;
    int width_ = 0, height_ = 0;
    int turn_ = -1;
    bool over_ = false;
    int initial_in_pen_ = 0;
    int sheep_per_tile_ = 0;
    std::vector<std::int8_t> land_;    // kGrass, kWall, kTree or kPenBase + owner
    std::vector<int> occupant_;        // kEmpty, dog index >= 0, or sheep_code(s)
    std::vector<Territory> territories_;
    std::vector<Dog> dogs_;            // creation order
    std::vector<Sheep> sheep_;         // creation order
};

}  // namespace arb::smartdog

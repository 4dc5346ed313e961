#pragma once
// The Ants rules engine (AI Challenge 2011), pure: no I/O, no clocks. It follows the original
// engine's turn as described in ../shared/rules/ants.md:
//   start_turn -> do_moves per player (parse + validate, section 3.1) -> finish_turn:
//   move with collisions (3.2) -> focus battle (3.3) -> razing (3.4) -> spawning (3.5)
//   -> gathering (3.6) -> food spawning (3.7) -> histories, vision, cutoff bookkeeping (3.8);
//   game_over / finish_game / ranks (section 4).
// Food placement and spawn tie-breaks are pluggable so the engine can be driven by a recorded
// replay (section 11, level A) or play a fresh game.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rules/ants/ants_map.hpp"

namespace arb::ants {

// The original's battle rules (ants.md 3.3, `--attack`; README.md "Battle rules" has each rule
// as the original's final ants.py implements it). The contest used focus.
enum class AttackRule : std::uint8_t { focus, closest, support, damage };
std::string_view attack_rule_name(AttackRule rule);
// nullopt for a name the original does not know.
std::optional<AttackRule> attack_rule_from_name(std::string_view name);

// Every parameter of the original with its playgame default (ants.md section 5).
struct AntsParams {
    int loadtime_ms = 3000;
    int turntime_ms = 1000;
    int turns = 1000;
    int viewradius2 = 77;
    int attackradius2 = 5;
    int spawnradius2 = 1;
    int food_rate = 0;     // drawn from [5, 11] when the game starts unless set
    int food_turn = 0;     // drawn from [19, 37]
    int food_start = 0;    // drawn from [75, 175]
    int food_visible = 0;  // drawn from [3, 5]
    double cutoff_percent = 0.85;
    int cutoff_turn = 150;
    std::int64_t engine_seed = 0;
    std::int64_t player_seed = 0;
    bool scenario = false;  // take ants and food from the map instead of one ant per hill
    AttackRule attack = AttackRule::focus;
};

inline constexpr int kNoOwner = -1;

struct Ant {
    int initial_cell = 0;
    int cell = 0;
    int prev_cell = 0;      // where it stood before this turn's move (vision bookkeeping)
    int owner = 0;
    int spawn_turn = 0;
    int die_turn = -1;      // -1 while alive
    std::string orders;     // executed moves, one of "nesw-" per turn since spawn_turn + 1
    bool alive() const { return die_turn < 0; }
};

struct Food {
    int cell = 0;
    int start_turn = 0;
    int end_turn = -1;      // -1 while on the map
    int owner = kNoOwner;   // set when gathered by exactly one player
};

struct Hill {
    int cell = 0;
    int owner = 0;
    int end_turn = -1;      // turn razed (-1: standing)
    int killed_by = kNoOwner;  // razer, or the lone survivor after finish_game
    bool raze_points = false;  // the owner already lost its point for this hill
    int last_touched = 0;
    bool standing() const { return killed_by == kNoOwner; }
};

// Verdicts on one player's order lines for one turn (ants.md 3.1).
struct OrderVerdicts {
    std::vector<std::size_t> valid;    // indices of the accepted lines in the lines given
    std::vector<std::string> ignored;  // "line # move blocked"
    std::vector<std::string> invalid;  // "line # reason"
};

class AntsEngine;

// Where new food comes from. The original's default is the symmetric placer; the replay driver
// injects the recorded food instead.
class FoodSource {
public:
    virtual ~FoodSource() = default;
    virtual void start_game(AntsEngine& engine) = 0;
    // Called in the food phase with the integer amount the accumulator offers; returns what
    // was not used (it stays in the accumulator).
    virtual int place(AntsEngine& engine, int amount) = 0;
};

// Spawn tie-break key for a hill (the original draws random() per hill); smaller spawns first
// among hills touched in the same turn.
using SpawnKey = std::function<double(const AntsEngine& engine, int hill_index)>;

class AntsEngine {
public:
    AntsEngine(const AntsMap& map, const AntsParams& params, std::unique_ptr<FoodSource> food,
               SpawnKey spawn_key);

    // --- the original engine's game interface -------------------------------------------
    void start_game();                  // initial food
    void start_turn();                  // turn + 1, clears per-turn lists
    OrderVerdicts do_moves(int player, const std::vector<std::string>& lines);
    // The same, filling `out` (its vectors keep their capacity from turn to turn).
    void do_moves(int player, std::span<const std::string> lines, OrderVerdicts& out);
    void finish_turn();
    bool game_over();                   // sets cutoff() when true
    void finish_game();                 // lone-survivor bonus, final markers
    void kill_player(int player);       // crash / timeout / invalid: out, ants stay
    bool is_alive(int player) const { return !killed_[player] && ant_count_[player] > 0; }

    // --- text for the bots (ants.md section 2) -------------------------------------------
    std::string player_start_text() const;       // turn 0 block without "ready"
    // Visible state lines for `player` (w, h, a, f, d), renumbering owners on the spot.
    std::string player_state_text(int player);
    // --- the original's stream format (ants.md 8.3, playgame -S) ----------------------------
    // Start block: the turn-0 lines, food_rate/food_turn/food_start and the map as "m" lines.
    std::string stream_start_text() const;
    // Every h, a, f and d line of the current state with the true owners (no water).
    std::string full_state_text();
    // data re-ordered to the player's numbering; "None" for players it never encountered.
    std::vector<std::string> order_for_player(int player, const std::vector<std::string>& data) const;

    // --- food placement, used by FoodSources -----------------------------------------------
    bool is_free_land(int cell) const;           // land, no ant, no food
    bool add_food(int cell);                      // false (and nothing added) if not free land
    void add_pending_food(int cell);              // +1 pending at cell
    void place_pending_food();                    // creates food on every free pending cell

    // --- state ------------------------------------------------------------------------------
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int players() const { return players_; }
    int turn() const { return turn_; }
    const AntsParams& params() const { return params_; }
    const std::vector<Ant>& ants() const { return ants_; }
    const std::vector<Food>& food() const { return food_; }
    const std::vector<Hill>& hills() const { return hills_; }
    const std::vector<std::uint8_t>& water() const { return water_; }
    int land_area() const { return land_area_; }
    const std::vector<int>& scores() const { return score_; }
    const std::vector<int>& bonus() const { return bonus_; }
    const std::vector<int>& hive() const { return hive_; }
    const std::vector<std::vector<int>>& score_history() const { return score_history_; }
    const std::vector<std::vector<int>>& hive_history() const { return hive_history_; }
    const std::string& cutoff() const { return cutoff_; }
    int winning_turn() const { return winning_turn_; }
    int ranking_turn() const { return ranking_turn_; }
    const std::vector<int>& killed_this_turn() const { return killed_ants_; }
    int ant_count(int player) const { return ant_count_[player]; }
    bool killed(int player) const { return killed_[player] != 0; }
    int cutoff_turns() const { return cutoff_turns_; }
    // 0-based competition rank on the current score (number of players strictly ahead).
    std::vector<int> ranks() const;
    int ant_at(int cell) const { return ant_at_[cell]; }
    int food_at(int cell) const { return food_at_[cell]; }
    int hill_at(int cell) const { return hill_at_[cell]; }
    bool visible(int player, int cell) const { return vision_[player][cell] > 0; }

    // Final-state map rendering for the replay (ants.md 8.1, with the 'I' quirk).
    std::vector<std::string> map_rows() const;
    // The original's replaydata object (revision 3).
    nlohmann::json replaydata() const;

    int cell(int row, int col) const { return row * cols_ + col; }
    int row_of(int cell) const { return cell / cols_; }
    int col_of(int cell) const { return cell % cols_; }
    int distance2(int a, int b) const;
    int wrap_row(int r) const { r %= rows_; return r < 0 ? r + rows_ : r; }
    int wrap_col(int c) const { c %= cols_; return c < 0 ? c + cols_ : c; }
    int step(int cell, char direction) const;
    // The same for a square whose row and column are known (no division).
    int step(int row, int col, char direction) const;

private:
    // linear = dr * cols + dc: the cell delta when the disc does not cross a map edge.
    struct Offset { int dr, dc; int linear = 0; };
    void add_ant(int hill_index);
    void place_ant(int cell, int owner);
    void kill_ant(int ant_index);
    void do_orders();
    // One battle phase per rule; finish_turn calls the one chosen at construction.
    void do_attack_focus();
    void do_attack_closest();
    void do_attack_support();
    void do_attack_damage();
    void (AntsEngine::*do_attack_)() = &AntsEngine::do_attack_focus;
    void do_raze_hills();
    void do_spawn();
    void do_gather();
    void do_food();
    void record_histories();
    void update_vision();
    void update_revealed_owners();
    void update_cutoff();
    void calc_significant_turns();
    void stamp_vision(int player, int cell, int delta);
    bool is_rank_stabilized() const;

    AntsParams params_;
    int rows_ = 0, cols_ = 0, players_ = 0, cells_ = 0;
    int land_area_ = 0;
    int turn_ = 0;
    std::vector<std::uint8_t> water_;
    std::vector<int> ant_at_, food_at_, hill_at_;
    std::vector<Ant> ants_;
    std::vector<std::int8_t> ant_owner_;     // ants_[i].owner, compact for the neighbour scans
    std::vector<int> ant_cell_;              // ants_[i].cell, likewise
    int first_new_ant_ = 0;                  // ants from this index on were placed this turn
    std::vector<int> live_;                  // indices of live ants
    std::vector<int> killed_ants_;           // ants killed in the current turn
    std::vector<Food> food_;
    std::vector<int> live_food_;             // indices of food on the map
    std::vector<int> food_cells_;            // squares with food, sorted (the bot text's order)
    std::vector<int> pending_count_;         // per cell: food waiting for the square to be free
    std::vector<int> pending_order_;         // cells with pending food, in insertion order
    std::vector<Hill> hills_;
    std::vector<int> hive_, score_, bonus_, ant_count_;
    std::vector<char> killed_;
    std::vector<std::vector<int>> score_history_, hive_history_;
    std::vector<char> order_dir_;            // per ant: accepted direction this turn, 0 = none
    std::vector<std::vector<int>> orders_;   // per player: ant indices ordered this turn
    std::unique_ptr<FoodSource> food_source_;
    SpawnKey spawn_key_;
    std::int64_t food_extra_num_ = 0;        // food accumulator, in units of 1/food_turn
    std::string cutoff_;
    int cutoff_bot_ = -2;                    // player, kFoodLeader or -2 (none)
    int cutoff_turns_ = 0;
    std::vector<int> winning_bot_, ranking_bots_;
    bool have_significant_ = false;
    int winning_turn_ = 0, ranking_turn_ = 0;
    // vision
    std::vector<Offset> view_offsets_, attack_offsets_, spawn_offsets_;
    std::vector<Offset> attack_half_offsets_;  // attack offsets with (dr, dc) > (0, 0), one of each +-pair
    // Vision changes of one step in direction n/e/s/w (index 0..3), relative to the new square:
    // squares that come into view and squares that drop out of view.
    std::vector<Offset> view_enter_[4], view_leave_[4];
    // Wrapping without division: row_base_[r + pad_] = (r mod rows) * cols, col_wrap_ likewise.
    int pad_ = 0;
    std::vector<int> row_base_, col_wrap_;
    int wrapped(int r, int c, const Offset& o) const { return row_base_[r + o.dr + pad_] + col_wrap_[c + o.dc + pad_]; }
    // Per cell: 1 when every offset (|dr|, |dc| <= pad_ - 1) from it stays on the map, so
    // cell + linear is the wrapped cell without table look-ups (or a division for row and col).
    std::vector<std::uint8_t> interior_;
    int step_from(int c, char direction) const {
        if (!interior_[static_cast<std::size_t>(c)]) return step(c, direction);
        return c + (direction == 'n' ? -cols_ : direction == 's' ? cols_ : direction == 'e' ? 1 : -1);
    }
    // Calls visit(v) for the cell v at each offset around c.
    template <class Visit>
    void for_offsets(int c, const std::vector<Offset>& offsets, Visit&& visit) const {
        if (interior_[static_cast<std::size_t>(c)]) {
            for (const auto& o : offsets) visit(c + o.linear);
        } else {
            const int r = row_of(c), k = col_of(c);
            for (const auto& o : offsets) visit(wrapped(r, k, o));
        }
    }
    void stamp_offsets(int player, int cell, const std::vector<Offset>& offsets, int delta);
    std::vector<std::vector<std::uint16_t>> vision_;    // per player: how many own ants see a cell
    std::vector<std::vector<std::uint8_t>> unseen_water_;  // per player: water never seen yet
    std::vector<std::vector<int>> revealed_water_;      // per player: water first seen this turn
    std::vector<std::vector<int>> switch_;              // per player: real owner -> their number
    // Bot text: every transient object of the turn in the original's order (rebuilt when
    // dirty); each player's text renders the ones it sees.
    struct StateObject {
        int cell;
        char kind;
        std::int8_t owner;
    };
    void push_state_object(char kind, int cell, int owner);
    // Decimal text of every row and column number, so the bot text needs no number formatting.
    struct NumberText { char digits[7]; std::uint8_t length; };
    std::vector<NumberText> row_text_, col_text_;
    char* put_coords(char* p, int cell) const;
    std::vector<std::uint64_t> sort_keys_;
    void rebuild_state_objects();
    std::vector<StateObject> state_objects_;
    std::vector<std::uint64_t> cell_bits_;      // per cell one bit, all clear between rebuilds
    std::vector<std::uint8_t> cell_key_owner_;  // per cell: owner + 1 of the marked object
    bool state_dirty_ = true;
    // scratch
    std::vector<std::string> late_invalid_;
    std::vector<std::uint16_t> arrivals_;
    std::vector<std::int8_t> owner_grid_;    // per cell: owner of the ant there, kNoOwner outside do_attack_focus
    std::vector<int> enemies_;
    std::vector<std::uint32_t> gather_owners_;  // per food index: owners of ants in reach, 0 between turns
    std::vector<int> gathered_;
    std::vector<int> survivors_;
};

inline constexpr int kFoodLeader = -3;

}  // namespace arb::ants

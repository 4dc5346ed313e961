// The Ants engine's set-up and turn interface: attack-rule names, the constructor (offset discs,
// wrap tables, initial hills and ants), square geometry, order parsing and validation
// (ants.md 3.1), the moves with collisions (3.2) and the order of the phases in finish_turn.
// The other phases are in ants_phases.cpp, ants_battle.cpp and ants_game_end.cpp; the bot text
// in ants_bot_text.cpp; the replay record in ants_replaydata.cpp.
#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {
using engine_detail::kRazePoints;

namespace {


// Offsets (dr, dc) with 0 < dr^2 + dc^2 <= radius2 in the original's scan order (row, then col).
template <class Offset>
std::vector<Offset> disc_offsets(int radius2, bool include_center) {
    std::vector<Offset> out;
    const int mx = static_cast<int>(std::sqrt(static_cast<double>(radius2)));
    for (int dr = -mx; dr <= mx; ++dr)
        for (int dc = -mx; dc <= mx; ++dc) {
            const int d = dr * dr + dc * dc;
            if ((d > 0 || include_center) && d <= radius2) out.push_back({dr, dc});
        }
    return out;
}

// Python's int() on a token already split on whitespace: optional sign, digits, single
// underscores between digits. Values beyond int64 saturate (they are out of bounds anyway).
std::optional<long long> python_int(std::string_view token) {
    std::size_t i = 0;
    bool negative = false;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) negative = token[i++] == '-';
    if (i >= token.size()) return std::nullopt;
    long long value = 0;
    bool prev_digit = false;
    for (; i < token.size(); ++i) {
        const char c = token[i];
        if (c >= '0' && c <= '9') {
            if (value < LLONG_MAX / 20) value = value * 10 + (c - '0');
            prev_digit = true;
        } else if (c == '_' && prev_digit && i + 1 < token.size() && token[i + 1] >= '0' && token[i + 1] <= '9') {
            prev_digit = false;
        } else {
            return std::nullopt;
        }
    }
    return negative ? -value : value;
}

}  // namespace

std::string_view attack_rule_name(AttackRule rule) {
    switch (rule) {
        case AttackRule::closest: return "closest";
        case AttackRule::support: return "support";
        case AttackRule::damage: return "damage";
        case AttackRule::focus: break;
    }
    return "focus";
}

std::optional<AttackRule> attack_rule_from_name(std::string_view name) {
    for (AttackRule rule : {AttackRule::focus, AttackRule::closest, AttackRule::support, AttackRule::damage})
        if (attack_rule_name(rule) == name) return rule;
    return std::nullopt;
}

AntsEngine::AntsEngine(const AntsMap& map, const AntsParams& params, std::unique_ptr<FoodSource> food,
                       SpawnKey spawn_key)
    : params_(params),
      rows_(map.rows),
      cols_(map.cols),
      players_(map.players),
      cells_(map.rows * map.cols),
      water_(map.water),
      food_source_(std::move(food)),
      spawn_key_(std::move(spawn_key)) {
    if (params_.food_turn <= 0) throw std::invalid_argument("ants: food_turn must be positive");
    // Bounds the bot text's fixed-size line slots and the per-player bit masks.
    if (rows_ > 99999 || cols_ > 99999) throw std::invalid_argument("ants: maps are limited to 99999 rows and columns");
    if (players_ > 26) throw std::invalid_argument("ants: at most 26 players (map letters a-z)");
    land_area_ = cells_ - static_cast<int>(std::count(water_.begin(), water_.end(), 1));
    ant_at_.assign(cells_, -1);
    food_at_.assign(cells_, -1);
    hill_at_.assign(cells_, -1);
    pending_count_.assign(cells_, 0);
    arrivals_.assign(cells_, 0);
    owner_grid_.assign(cells_, kNoOwner);
    cell_bits_.assign((static_cast<std::size_t>(cells_) + 63) / 64, 0);
    cell_key_owner_.assign(cells_, 0);
    hive_.assign(players_, 0);
    bonus_.assign(players_, 0);
    ant_count_.assign(players_, 0);
    killed_.assign(players_, 0);
    orders_.assign(players_, {});
    hive_history_.assign(players_, std::vector<int>{0});

    switch (params_.attack) {
        case AttackRule::focus: do_attack_ = &AntsEngine::do_attack_focus; break;
        case AttackRule::closest: do_attack_ = &AntsEngine::do_attack_closest; break;
        case AttackRule::support: do_attack_ = &AntsEngine::do_attack_support; break;
        case AttackRule::damage: do_attack_ = &AntsEngine::do_attack_damage; break;
    }
    view_offsets_ = disc_offsets<Offset>(params_.viewradius2, true);
    attack_offsets_ = disc_offsets<Offset>(params_.attackradius2, false);
    for (const auto& o : attack_offsets_)
        if (o.dr > 0 || (o.dr == 0 && o.dc > 0)) attack_half_offsets_.push_back(o);
    spawn_offsets_ = disc_offsets<Offset>(params_.spawnradius2, false);
    const Offset steps[4] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // n, e, s, w
    auto in_view = [&](int dr, int dc) { return dr * dr + dc * dc <= params_.viewradius2; };
    for (int d = 0; d < 4; ++d) {
        for (const auto& o : view_offsets_) {
            // o relative to the new square is o + step relative to the old one
            if (!in_view(o.dr + steps[d].dr, o.dc + steps[d].dc)) view_enter_[d].push_back(o);
            // an old-disc square q is q - step relative to the new square
            const Offset back{o.dr - steps[d].dr, o.dc - steps[d].dc};
            if (!in_view(back.dr, back.dc)) view_leave_[d].push_back(back);
        }
    }
    int reach = 1;
    for (const auto* set : {&view_offsets_, &attack_offsets_, &spawn_offsets_})
        for (const auto& o : *set) reach = std::max({reach, std::abs(o.dr), std::abs(o.dc)});
    pad_ = reach + 2;
    for (int i = -pad_; i < rows_ + pad_; ++i) row_base_.push_back(wrap_row(i) * cols_);
    for (int i = -pad_; i < cols_ + pad_; ++i) col_wrap_.push_back(wrap_col(i));
    auto number_text = [](int v) {
        NumberText n{};
        n.length = static_cast<std::uint8_t>(std::to_chars(n.digits, n.digits + sizeof n.digits, v).ptr - n.digits);
        return n;
    };
    interior_.assign(cells_, 0);
    for (int r = pad_ - 1; r < rows_ - (pad_ - 1); ++r)
        for (int c = pad_ - 1; c < cols_ - (pad_ - 1); ++c) interior_[static_cast<std::size_t>(cell(r, c))] = 1;
    for (int r = 0; r < rows_; ++r) row_text_.push_back(number_text(r));
    for (int c = 0; c < cols_; ++c) col_text_.push_back(number_text(c));
    for (auto* set : {&view_offsets_, &attack_offsets_, &attack_half_offsets_, &spawn_offsets_})
        for (auto& o : *set) o.linear = o.dr * cols_ + o.dc;
    for (int d = 0; d < 4; ++d)
        for (auto* set : {&view_enter_[d], &view_leave_[d]})
            for (auto& o : *set) o.linear = o.dr * cols_ + o.dc;

    // One hill per map hill and one ant on each, in the original's hill order.
    for (const auto& spec : map.hills) {
        Hill hill;
        hill.cell = cell(spec.row, spec.col);
        hill.owner = spec.owner;
        hill_at_[hill.cell] = static_cast<int>(hills_.size());
        hills_.push_back(hill);
    }
    if (!params_.scenario) {
        for (int h = 0; h < static_cast<int>(hills_.size()); ++h) add_ant(h);
    } else {
        for (const auto& a : map.scenario_ants) place_ant(cell(a.row, a.col), a.owner);
        for (int c : map.scenario_food) add_food(c);
    }

    // Quirk 12.1: everyone starts with the hill count of player 0.
    const int start_score = static_cast<int>(
        std::count_if(hills_.begin(), hills_.end(), [](const Hill& h) { return h.owner == 0; }));
    score_.assign(players_, start_score);
    for (int s : score_) score_history_.push_back({s});

    vision_.assign(players_, std::vector<std::uint16_t>(cells_, 0));
    unseen_water_.assign(players_, water_);
    revealed_water_.assign(players_, {});
    switch_.assign(players_, std::vector<int>(players_, -1));
    for (int p = 0; p < players_; ++p) switch_[p][p] = 0;
    update_vision();
    update_revealed_owners();
}

int AntsEngine::distance2(int a, int b) const { return engine_detail::torus_distance2(rows_, cols_, a, b); }

int AntsEngine::step(int c, char direction) const { return step(row_of(c), col_of(c), direction); }

int AntsEngine::step(int r, int k, char direction) const {
    switch (direction) {
        case 'n': r = r == 0 ? rows_ - 1 : r - 1; break;
        case 's': r = r + 1 == rows_ ? 0 : r + 1; break;
        case 'w': k = k == 0 ? cols_ - 1 : k - 1; break;
        case 'e': k = k + 1 == cols_ ? 0 : k + 1; break;
        default: break;
    }
    return r * cols_ + k;
}


// ---------------------------------------------------------------------------------------------
// Turn interface

void AntsEngine::start_game() {
    if (food_source_) food_source_->start_game(*this);
    state_dirty_ = true;
}

void AntsEngine::start_turn() {
    ++turn_;
    killed_ants_.clear();
    for (auto& w : revealed_water_) w.clear();
    for (auto& o : orders_) {
        for (int a : o) order_dir_[a] = 0;
        o.clear();
    }
    state_dirty_ = true;
}

OrderVerdicts AntsEngine::do_moves(int player, const std::vector<std::string>& lines) {
    OrderVerdicts out;
    do_moves(player, std::span<const std::string>(lines), out);
    return out;
}

namespace {
// The blank set " \t\r\n\v\f" of Python's str.strip()/split(), tested inline.
constexpr bool is_blank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
// std::tolower in the "C" locale (the arbiter never sets another) maps only A-Z.
constexpr char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct PlainOrder { long long row, col; char dir; };

// "o R C D": lower-case o, single spaces, R and C of 1-6 plain digits, D one of nesw; nothing
// else on the line. Any other line takes the general path, which gives the same result for
// these lines.
std::optional<PlainOrder> parse_plain_order(std::string_view line) {
    const std::size_t n = line.size();
    if (n < 7 || line[0] != 'o' || line[1] != ' ') return std::nullopt;
    std::size_t i = 2;
    long long values[2];
    for (long long& value : values) {
        const std::size_t start = i;
        value = 0;
        // Reading stops at a seventh digit, so the value never nears overflow.
        while (i < n && i - start <= 6 && line[i] >= '0' && line[i] <= '9')
            value = value * 10 + (line[i++] - '0');
        if (i == start || i - start > 6 || i >= n || line[i] != ' ') return std::nullopt;
        ++i;
    }
    if (i + 1 != n) return std::nullopt;
    const char dir = line[i];
    if (dir != 'n' && dir != 'e' && dir != 's' && dir != 'w') return std::nullopt;
    return PlainOrder{values[0], values[1], dir};
}

// The original reports a line lower-cased and stripped, followed by " # reason".
std::string verdict_line(std::string_view line, std::string_view reason) {
    std::string out(line);
    for (char& c : out) c = lower_ascii(c);
    out += reason;
    return out;
}
}  // namespace

// ants.md 3.1: parse, then validate against the positions at the start of the turn. The lines
// are read in place: only a verdict copies text (lower-cased, as the original reports it).
void AntsEngine::do_moves(int player, std::span<const std::string> lines, OrderVerdicts& out) {
    out.valid.clear();
    out.ignored.clear();
    out.invalid.clear();
    // The original parses every line, then validates the parsed ones in order: its invalid
    // list has all parse errors first. Validating each line at once and collecting the
    // validation errors apart gives the same lists in one pass.
    auto& late_invalid = late_invalid_;
    late_invalid.clear();
    auto validate = [&](std::size_t index, std::string_view line, long long row, long long col, char dir) {
        // Accepted orders always have in-range non-negative coordinates, so a duplicate is an
        // order for an ant that already has an accepted order this turn.
        if (row >= 0 && col >= 0 && row < rows_ && col < cols_) {
            const int a0 = ant_at_[cell(static_cast<int>(row), static_cast<int>(col))];
            if (a0 >= 0 && ant_owner_[a0] == player && order_dir_[a0] != 0) {
                late_invalid.push_back(verdict_line(line, " # duplicate order"));
                return;
            }
        }
        // Python list indexing: -len <= i < len is in range, negatives index from the end.
        if (row < -rows_ || row >= rows_ || col < -cols_ || col >= cols_) {
            late_invalid.push_back(verdict_line(line, " # out of bounds"));
            return;
        }
        const int r = static_cast<int>(row < 0 ? row + rows_ : row);
        const int k = static_cast<int>(col < 0 ? col + cols_ : col);
        const int c = cell(r, k);
        const int a = ant_at_[c];
        if (a < 0 || ant_owner_[a] != player) {
            late_invalid.push_back(verdict_line(line, " # not player ant"));
            return;
        }
        if (row < 0 || col < 0) {
            late_invalid.push_back(verdict_line(line, " # out of bounds"));
            return;
        }
        const int dest = step(r, k, dir);
        if (water_[dest] || food_at_[dest] >= 0) {
            out.ignored.push_back(verdict_line(line, " # move blocked"));
            return;
        }
        out.valid.push_back(index);
        order_dir_[a] = dir;
        orders_[player].push_back(a);
    };
    for (std::size_t index = 0; index < lines.size(); ++index) {
        const std::string& raw = lines[index];
        // The usual line, "o ROW COL D" with single spaces and plain digits, read directly.
        if (const auto fast = parse_plain_order(raw)) {
            validate(index, raw, fast->row, fast->col, fast->dir);
            continue;
        }
        std::size_t begin = 0, end = raw.size();
        while (begin < end && is_blank(raw[begin])) ++begin;
        if (begin == end) continue;
        while (is_blank(raw[end - 1])) --end;
        if (raw[begin] == '#') continue;
        const std::string_view line = std::string_view(raw).substr(begin, end - begin);
        // Python's str.split(): whitespace-separated tokens; only the first four are needed.
        std::string_view data[4];
        std::size_t tokens = 0;
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && is_blank(line[i])) ++i;
            if (i == line.size()) break;
            const std::size_t token_begin = i;
            while (i < line.size() && !is_blank(line[i])) ++i;
            if (tokens < 4) data[tokens] = line.substr(token_begin, i - token_begin);
            ++tokens;
        }
        if (data[0].size() != 1 || lower_ascii(data[0][0]) != 'o') {
            out.invalid.push_back(verdict_line(line, " # unknown action"));
            continue;
        }
        if (tokens != 4) { out.invalid.push_back(verdict_line(line, " # incorrectly formatted order")); continue; }
        const auto row = python_int(data[1]);
        const auto col = python_int(data[2]);
        if (!row || !col) { out.invalid.push_back(verdict_line(line, " # invalid row or col")); continue; }
        const char dir = data[3].size() == 1 ? lower_ascii(data[3][0]) : '\0';
        if (dir != 'n' && dir != 'e' && dir != 's' && dir != 'w') {
            out.invalid.push_back(verdict_line(line, " # invalid direction"));
            continue;
        }
        validate(index, line, *row, *col, dir);
    }
    out.invalid.insert(out.invalid.end(), std::make_move_iterator(late_invalid.begin()),
                       std::make_move_iterator(late_invalid.end()));
}

void AntsEngine::kill_player(int player) {
    killed_[player] = 1;
    for (auto& hill : hills_)
        if (hill.owner == player && !hill.raze_points) {
            hill.raze_points = true;
            score_[player] += kRazePoints;
        }
    // The orders of a killed player are discarded.
    for (int a : orders_[player]) order_dir_[a] = 0;
    orders_[player].clear();
}

// ants.md 3.2: everyone moves at once; all ants that end on one square die.
void AntsEngine::do_orders() {
    for (int a : live_) ant_at_[ant_cell_[a]] = -1;
    for (int a : live_) {
        Ant& ant = ants_[a];
        const char dir = order_dir_[a] ? order_dir_[a] : '-';
        ant.prev_cell = ant.cell;
        if (dir != '-') ant.cell = ant_cell_[a] = step_from(ant.cell, dir);
        ant.orders.push_back(dir);
        ++arrivals_[ant.cell];
    }
    survivors_.clear();
    for (int a : live_) {
        const int c = ant_cell_[a];
        if (arrivals_[c] == 1) {
            ant_at_[c] = a;
            survivors_.push_back(a);
        } else {
            kill_ant(a);
        }
    }
    for (int a : live_) arrivals_[ant_cell_[a]] = 0;
    live_.swap(survivors_);
}

void AntsEngine::finish_turn() {
    do_orders();
    (this->*do_attack_)();
    do_raze_hills();
    first_new_ant_ = static_cast<int>(ants_.size());
    do_spawn();
    do_gather();
    do_food();
    record_histories();
    update_vision();
    update_revealed_owners();
    update_cutoff();
    calc_significant_turns();
    state_dirty_ = true;
}

}  // namespace arb::ants

#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace arb::ants {
namespace {

constexpr int kHillPoints = 2;   // ants.md section 4: razing an enemy hill
constexpr int kRazePoints = -1;  // losing an own hill (or crashing with it)

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

void append_int(std::string& out, long long v) {
    char buf[24];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ptr);
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

int AntsEngine::distance2(int a, int b) const {
    int dr = std::abs(row_of(a) - row_of(b));
    dr = std::min(dr, rows_ - dr);
    int dc = std::abs(col_of(a) - col_of(b));
    dc = std::min(dc, cols_ - dc);
    return dr * dr + dc * dc;
}

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

bool AntsEngine::is_alive(int player) const { return !killed_[player] && ant_count_[player] > 0; }

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
        while (i < n && line[i] >= '0' && line[i] <= '9') value = value * 10 + (line[i++] - '0');
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

// ---------------------------------------------------------------------------------------------
// Phases

void AntsEngine::add_ant(int hill_index) {
    Hill& hill = hills_[hill_index];
    place_ant(hill.cell, hill.owner);
    hill.last_touched = turn_;
}

// A new ant on square c (all per-ant arrays grow together). Scenario ants come straight from
// here, without touching any hill; spawned ants through add_ant.
void AntsEngine::place_ant(int c, int owner) {
    Ant ant;
    ant.initial_cell = ant.cell = ant.prev_cell = c;
    ant.owner = owner;
    ant.spawn_turn = turn_;
    const int index = static_cast<int>(ants_.size());
    ant_owner_.push_back(static_cast<std::int8_t>(ant.owner));
    ant_cell_.push_back(ant.cell);
    ants_.push_back(std::move(ant));
    order_dir_.push_back(0);
    ant_at_[c] = index;
    live_.push_back(index);
    ++ant_count_[owner];
}

void AntsEngine::kill_ant(int a) {
    Ant& ant = ants_[a];
    ant.die_turn = turn_;
    if (ant_at_[ant.cell] == a) ant_at_[ant.cell] = -1;
    killed_ants_.push_back(a);
    --ant_count_[ant.owner];
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

// ants.md 3.3: an ant dies iff some enemy in range has no more enemies in range than it has.
void AntsEngine::do_attack_focus() {
    if (enemies_.size() < ants_.size()) enemies_.resize(ants_.size());
    // Cell of attack offset o around (r, k); interior squares skip the wrap tables.
    // Owner per square (kNoOwner = empty) for the counting pass: one byte array instead of
    // ant_at_ then ant_owner_ per neighbour; only the live ants' squares are set and reset.
    // "Is an enemy in range" is symmetric (the disc is symmetric and b = a + o iff a = b - o on
    // the torus), so each pair is found once through the half disc and counted for both ants.
    for (int a : live_) {
        owner_grid_[ant_cell_[a]] = ant_owner_[a];
        enemies_[a] = 0;
    }
    for (int a : live_) {
        const std::int8_t own = ant_owner_[a];
        for_offsets(ant_cell_[a], attack_half_offsets_, [&](int v) {
            const std::int8_t b = owner_grid_[v];
            if (b != kNoOwner && b != own) {
                ++enemies_[a];
                ++enemies_[ant_at_[v]];
            }
        });
    }
    for (int a : live_) owner_grid_[ant_cell_[a]] = kNoOwner;
    std::vector<int> doomed;
    for (int a : live_) {
        const int weakness = enemies_[a];
        if (weakness == 0) continue;
        const std::int8_t own = ant_owner_[a];
        int min_enemy = INT_MAX;
        for_offsets(ant_cell_[a], attack_offsets_, [&](int v) {
            const int b = ant_at_[v];
            if (b >= 0 && ant_owner_[b] != own) min_enemy = std::min(min_enemy, enemies_[b]);
        });
        if (min_enemy <= weakness) doomed.push_back(a);
    }
    if (doomed.empty()) return;
    for (int a : doomed) kill_ant(a);
    std::erase_if(live_, [&](int a) { return !ants_[a].alive(); });
}

// The battle rules not used in the contest (ants.md 3.3 names them; README.md "Battle rules"
// states each one as the original's do_attack_closest / do_attack_support / do_attack_damage
// do it). None of them draws random numbers or changes a score.

// closest: for each squared distance d = 1 .. attackradius2 - 1 (the original's range() stops
// before attackradius2 itself), every group of ants linked by "of different owners, exactly d
// apart" with two or more members dies; the dead take no part at the larger distances. The
// groups are connected components, so the result does not depend on which ant is looked at first.
void AntsEngine::do_attack_closest() {
    // Each live ant's enemies in range (torus distance, as the original measures them), in CSR form.
    struct Link { int to; int d2; };
    std::vector<int> first(live_.size() + 1, 0);
    std::vector<Link> links;
    if (enemies_.size() < ants_.size()) enemies_.resize(ants_.size());
    for (std::size_t i = 0; i < live_.size(); ++i) enemies_[live_[i]] = static_cast<int>(i);  // ant -> position
    std::vector<int> distances;
    for (std::size_t i = 0; i < live_.size(); ++i) {
        const int a = live_[i];
        const std::int8_t own = ant_owner_[a];
        for_offsets(ant_cell_[a], attack_offsets_, [&](int v) {
            const int b = ant_at_[v];
            if (b < 0 || ant_owner_[b] == own) return;
            const int d2 = distance2(ant_cell_[a], v);
            if (d2 >= params_.attackradius2) return;
            links.push_back({enemies_[b], d2});
            distances.push_back(d2);
        });
        first[i + 1] = static_cast<int>(links.size());
    }
    if (links.empty()) return;
    std::sort(distances.begin(), distances.end());
    distances.erase(std::unique(distances.begin(), distances.end()), distances.end());
    std::vector<char> dead(live_.size(), 0);
    std::vector<int> seen(live_.size(), 0);  // distance whose search last reached the ant
    std::vector<int> group;
    for (const int d : distances) {  // the distances no pair has would kill nobody
        for (std::size_t start = 0; start < live_.size(); ++start) {
            if (dead[start] || seen[start] == d) continue;
            group.assign(1, static_cast<int>(start));
            seen[start] = d;
            for (std::size_t k = 0; k < group.size(); ++k)
                for (int l = first[group[k]]; l < first[group[k] + 1]; ++l) {
                    const Link& link = links[l];
                    if (link.d2 != d || dead[link.to] || seen[link.to] == d) continue;
                    seen[link.to] = d;
                    group.push_back(link.to);
                }
            if (group.size() > 1)
                for (int i : group) dead[i] = 1;
        }
    }
    bool any = false;
    for (std::size_t i = 0; i < live_.size(); ++i)
        if (dead[i]) {
            kill_ant(live_[i]);
            any = true;
        }
    if (any) std::erase_if(live_, [&](int a) { return !ants_[a].alive(); });
}

// support: the original counts friends among the ants its nearby-ants search returns, but that
// search already leaves out the ant's own player, so the friend count is always 0 and the rule
// is "an ant with at least one enemy in range dies" (all decided first, applied together).
void AntsEngine::do_attack_support() {
    std::vector<int> doomed;
    for (int a : live_) {
        const std::int8_t own = ant_owner_[a];
        bool engaged = false;
        for_offsets(ant_cell_[a], attack_offsets_, [&](int v) {
            const int b = ant_at_[v];
            if (b >= 0 && ant_owner_[b] != own) engaged = true;
        });
        if (engaged) doomed.push_back(a);
    }
    if (doomed.empty()) return;
    for (int a : doomed) kill_ant(a);
    std::erase_if(live_, [&](int a) { return !ants_[a].alive(); });
}

namespace {

// 1/n_1 + ... + 1/n_k >= 1, exactly as the original's Fraction sum (denominators are enemy
// counts, so the common denominator stays far below 2^128 for any radius the options allow;
// should it not, the rest is summed in long double).
bool reciprocals_reach_one(std::vector<int>& counts) {
    std::sort(counts.begin(), counts.end());  // large terms first: most deaths are decided early
    using u128 = unsigned __int128;
    auto gcd = [](u128 x, u128 y) {
        while (y != 0) {
            const u128 t = x % y;
            x = y;
            y = t;
        }
        return x;
    };
    u128 num = 0, den = 1;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const u128 n = static_cast<u128>(counts[i]);
        u128 scaled = 0, next_den = 0;
        if (__builtin_mul_overflow(num, n, &scaled) || __builtin_mul_overflow(den, n, &next_den) ||
            __builtin_add_overflow(scaled, den, &scaled)) {
            long double sum = static_cast<long double>(num) / static_cast<long double>(den);
            for (std::size_t j = i; j < counts.size(); ++j) sum += 1.0L / counts[j];
            return sum >= 1.0L;
        }
        const u128 g = gcd(scaled, next_den);
        num = scaled / g;
        den = next_den / g;
        if (num >= den) return true;
    }
    return false;
}

}  // namespace

// damage: every ant with n enemies in range deals 1/n to each of them; an ant whose damage adds
// up to at least 1 dies (all decided first, applied together). An enemy seen twice through the
// wrap of a tiny map counts twice, as in the original's list of nearby ants.
void AntsEngine::do_attack_damage() {
    if (enemies_.size() < ants_.size()) enemies_.resize(ants_.size());
    for (int a : live_) {
        const std::int8_t own = ant_owner_[a];
        int n = 0;
        for_offsets(ant_cell_[a], attack_offsets_, [&](int v) {
            const int b = ant_at_[v];
            if (b >= 0 && ant_owner_[b] != own) ++n;
        });
        enemies_[a] = n;
    }
    std::vector<int> doomed, attackers;
    for (int a : live_) {
        if (enemies_[a] == 0) continue;
        // a's enemies are exactly the ants that have a among their enemies (the disc is symmetric)
        const std::int8_t own = ant_owner_[a];
        attackers.clear();
        for_offsets(ant_cell_[a], attack_offsets_, [&](int v) {
            const int b = ant_at_[v];
            if (b >= 0 && ant_owner_[b] != own) attackers.push_back(enemies_[b]);
        });
        if (reciprocals_reach_one(attackers)) doomed.push_back(a);
    }
    if (doomed.empty()) return;
    for (int a : doomed) kill_ant(a);
    std::erase_if(live_, [&](int a) { return !ants_[a].alive(); });
}

// ants.md 3.4
void AntsEngine::do_raze_hills() {
    for (auto& hill : hills_) {
        const int a = ant_at_[hill.cell];
        if (a < 0) continue;
        const int owner = ants_[a].owner;
        if (owner == hill.owner) {
            hill.last_touched = turn_;
        } else if (hill.standing()) {
            hill.end_turn = turn_;
            hill.killed_by = owner;
            score_[owner] += kHillPoints;
            if (!hill.raze_points) {
                hill.raze_points = true;
                score_[hill.owner] += kRazePoints;
            }
            cutoff_turns_ = 0;
        }
    }
}

// ants.md 3.5: least recently touched hill first, ties by the spawn key; crashed players too.
void AntsEngine::do_spawn() {
    std::vector<std::pair<std::pair<int, double>, int>> order;
    for (int p = 0; p < players_; ++p) {
        order.clear();
        for (int h = 0; h < static_cast<int>(hills_.size()); ++h) {
            const Hill& hill = hills_[h];
            if (hill.owner != p || !hill.standing()) continue;
            order.push_back({{hill.last_touched, spawn_key_ ? spawn_key_(*this, h) : 0.0}, h});
        }
        std::stable_sort(order.begin(), order.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        for (const auto& [key, h] : order) {
            if (hive_[p] > 0 && ant_at_[hills_[h].cell] < 0) {
                --hive_[p];
                add_ant(h);
            }
        }
    }
}

// ants.md 3.6. Each food square looks for ants within spawnradius2; walking the ants' discs
// instead finds the same (food, owner) pairs, and ants are usually fewer than food.
void AntsEngine::do_gather() {
    if (gather_owners_.size() < food_.size()) gather_owners_.resize(food_.size(), 0);
    gathered_.clear();
    for (int a : live_) {
        const unsigned bit = 1u << ant_owner_[a];
        for_offsets(ant_cell_[a], spawn_offsets_, [&](int v) {
            const int f = food_at_[v];
            if (f < 0) return;
            if (gather_owners_[f] == 0) gathered_.push_back(f);
            gather_owners_[f] |= bit;
        });
    }
    if (gathered_.empty()) return;
    for (int f : gathered_) {
        Food& food = food_[f];
        const unsigned owners = gather_owners_[f];
        gather_owners_[f] = 0;
        food.end_turn = turn_;
        food_at_[food.cell] = -1;
        if (std::popcount(owners) == 1) {
            food.owner = std::countr_zero(owners);
            ++hive_[food.owner];
        }
    }
    std::erase_if(live_food_, [&](int f) { return food_[f].end_turn >= 0; });
    std::erase_if(food_cells_, [&](int c) { return food_at_[c] < 0; });
}

// ants.md 3.7: the accumulator gains food_rate * players / food_turn per turn.
void AntsEngine::do_food() {
    food_extra_num_ += static_cast<std::int64_t>(params_.food_rate) * players_;
    const int food_now = static_cast<int>(food_extra_num_ / params_.food_turn);
    const int left_over = food_source_ ? food_source_->place(*this, food_now) : food_now;
    food_extra_num_ -= static_cast<std::int64_t>(food_now - left_over) * params_.food_turn;
}

bool AntsEngine::is_free_land(int c) const { return !water_[c] && ant_at_[c] < 0 && food_at_[c] < 0; }

bool AntsEngine::add_food(int c) {
    if (!is_free_land(c)) return false;
    Food food;
    food.cell = c;
    food.start_turn = turn_;
    food_at_[c] = static_cast<int>(food_.size());
    live_food_.push_back(food_at_[c]);
    food_cells_.insert(std::lower_bound(food_cells_.begin(), food_cells_.end(), c), c);
    food_.push_back(food);
    state_dirty_ = true;
    return true;
}

void AntsEngine::add_pending_food(int c) {
    if (pending_count_[c]++ == 0) pending_order_.push_back(c);
}

// A Python dict walked in insertion order: a location leaves the queue when its count hits 0.
void AntsEngine::place_pending_food() {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < pending_order_.size(); ++i) {
        const int c = pending_order_[i];
        if (is_free_land(c)) {
            add_food(c);
            if (--pending_count_[c] == 0) continue;
        }
        pending_order_[kept++] = c;
    }
    pending_order_.resize(kept);
}

// ants.md 3.8: live players append; dead players' histories only grow when the value changes.
void AntsEngine::record_histories() {
    auto record = [&](std::vector<int>& history, int value, bool alive) {
        if (alive) {
            history.push_back(value);
        } else if (value != history.back()) {
            const int last = history.back();
            while (static_cast<int>(history.size()) < turn_) history.push_back(last);
            history.push_back(value);
        }
    };
    for (int p = 0; p < players_; ++p) {
        const bool alive = is_alive(p);
        record(score_history_[p], score_[p], alive);
        record(hive_history_[p], hive_[p], alive);
    }
}

void AntsEngine::stamp_offsets(int player, int c, const std::vector<Offset>& offsets, int delta) {
    auto& vision = vision_[player];
    if (delta < 0) {
        for_offsets(c, offsets, [&](int v) { --vision[v]; });
        return;
    }
    // Only water is reported once when first seen, so only water needs a "seen" mark.
    auto& unseen_water = unseen_water_[player];
    for_offsets(c, offsets, [&](int v) {
        ++vision[v];
        if (unseen_water[v]) {
            unseen_water[v] = 0;
            revealed_water_[player].push_back(v);
        }
    });
}

void AntsEngine::stamp_vision(int player, int c, int delta) { stamp_offsets(player, c, view_offsets_, delta); }

namespace {
int direction_index(char d) { return d == 'n' ? 0 : d == 'e' ? 1 : d == 's' ? 2 : 3; }
}  // namespace

// Incremental vision (as the original's update_vision), equivalent to the union of discs
// around live ants: a moved ant only takes away the trailing edge of its disc and adds the
// leading edge. The order of these updates does not matter: a removal only undoes a count an
// ant made before, so a square counted 0 -> 1 here is visible at the end of the pass.
void AntsEngine::update_vision() {
    for (int a : killed_ants_) stamp_vision(ant_owner_[a], ants_[a].prev_cell, -1);
    // order_dir_ still holds the move each live ant made this turn (0: none); an ant spawned
    // this turn (or placed at the start) has no previous disc.
    for (int a : live_) {
        if (a >= first_new_ant_) {
            stamp_vision(ant_owner_[a], ant_cell_[a], +1);
        } else if (order_dir_[a] != 0) {
            const int d = direction_index(order_dir_[a]);
            stamp_offsets(ant_owner_[a], ant_cell_[a], view_leave_[d], -1);
            stamp_offsets(ant_owner_[a], ant_cell_[a], view_enter_[d], +1);
        }
    }
    for (auto& w : revealed_water_) std::sort(w.begin(), w.end());
}

// ants.md section 2, "Player renumbering": owners of visible ants get the next number in the
// row-major order of their first visible square.
void AntsEngine::update_revealed_owners() {
    std::vector<int> first_seen(players_);
    for (int p = 0; p < players_; ++p) {
        auto& sw = switch_[p];
        if (std::find(sw.begin(), sw.end(), -1) == sw.end()) continue;
        std::fill(first_seen.begin(), first_seen.end(), INT_MAX);
        for (int a : live_) {
            const int owner = ant_owner_[a], c = ant_cell_[a];
            if (sw[owner] < 0 && vision_[p][c] > 0) first_seen[owner] = std::min(first_seen[owner], c);
        }
        std::vector<int> owners;
        for (int o = 0; o < players_; ++o)
            if (first_seen[o] != INT_MAX) owners.push_back(o);
        std::sort(owners.begin(), owners.end(), [&](int x, int y) { return first_seen[x] < first_seen[y]; });
        int next = static_cast<int>(std::count_if(sw.begin(), sw.end(), [](int v) { return v >= 0; }));
        for (int o : owners) sw[o] = next++;
    }
}

// ants.md 3.8 cutoff bookkeeping: one side with >= cutoff_percent of the population.
void AntsEngine::update_cutoff() {
    std::vector<long long> pop(players_, 0);
    std::vector<int> key_order;  // Python dict insertion order: ant owners, hill owners, FOOD
    std::vector<char> present(players_, 0);
    for (int a : live_) {
        const int o = ant_owner_[a];
        ++pop[o];
        if (!present[o]) { present[o] = 1; key_order.push_back(o); }
    }
    for (const auto& hill : hills_) {
        if (!hill.standing()) continue;
        pop[hill.owner] += hive_[hill.owner];  // quirk 12.4: once per standing hill
        if (!present[hill.owner]) { present[hill.owner] = 1; key_order.push_back(hill.owner); }
    }
    const long long food_count = static_cast<long long>(live_food_.size());
    long long total = food_count;
    for (long long v : pop) total += v;
    key_order.push_back(kFoodLeader);
    const double threshold = static_cast<double>(total) * params_.cutoff_percent;
    for (int key : key_order) {
        const long long count = key == kFoodLeader ? food_count : pop[key];
        if (static_cast<double>(count) >= threshold) {
            if (cutoff_bot_ == key) {
                // "hill_kill" stall: an ant died this turn on a standing hill of someone else
                bool hill_kill = false;
                for (int a : killed_ants_) {
                    const int h = hill_at_[ants_[a].cell];
                    if (h >= 0 && hills_[h].standing() && hills_[h].owner != key) hill_kill = true;
                }
                if (!hill_kill) ++cutoff_turns_;
            } else {
                cutoff_bot_ = key;
                cutoff_turns_ = 1;
            }
            return;
        }
    }
    cutoff_bot_ = -2;
    cutoff_turns_ = 0;
}

std::vector<int> AntsEngine::ranks() const {
    std::vector<int> out(players_, 0);
    for (int p = 0; p < players_; ++p)
        for (int q = 0; q < players_; ++q)
            if (score_[q] > score_[p]) ++out[p];
    return out;
}

void AntsEngine::calc_significant_turns() {
    const auto ranking = ranks();
    if (!have_significant_ || ranking != ranking_bots_) ranking_turn_ = turn_;
    ranking_bots_ = ranking;
    const int best = *std::max_element(score_.begin(), score_.end());
    std::vector<int> winners;
    for (int p = 0; p < players_; ++p)
        if (score_[p] == best) winners.push_back(p);
    if (!have_significant_ || winners != winning_bot_) winning_turn_ = turn_;
    winning_bot_ = winners;
    have_significant_ = true;
}

// ants.md section 4
bool AntsEngine::is_rank_stabilized() const {
    for (int p = 0; p < players_; ++p) {
        const bool has_hill = std::any_of(hills_.begin(), hills_.end(),
                                          [&](const Hill& h) { return h.owner == p && h.standing(); });
        if (!is_alive(p) || !has_hill) continue;
        int max_score = score_[p];
        for (const auto& h : hills_)
            if (h.standing() && h.owner != p) max_score += kHillPoints;
        for (int q = 0; q < players_; ++q) {
            if (q == p) continue;
            int min_score = score_[q];
            for (const auto& h : hills_)
                if (h.standing() && h.owner == q) min_score += kRazePoints;
            if ((score_[p] < score_[q] && max_score >= min_score) ||
                (score_[p] == score_[q] && max_score > min_score))
                return false;
        }
    }
    return true;
}

bool AntsEngine::game_over() {
    int remaining = 0;
    for (int p = 0; p < players_; ++p) remaining += is_alive(p) ? 1 : 0;
    if (remaining < 1) { cutoff_ = "extermination"; return true; }
    if (remaining == 1) { cutoff_ = "lone survivor"; return true; }
    if (cutoff_turns_ >= params_.cutoff_turn) {
        cutoff_ = cutoff_bot_ == kFoodLeader ? "food not being gathered" : "ants not razing hills";
        return true;
    }
    if (is_rank_stabilized()) { cutoff_ = "rank stabilized"; return true; }
    return false;
}

void AntsEngine::finish_game() {
    std::vector<int> remaining;
    for (int p = 0; p < players_; ++p)
        if (is_alive(p)) remaining.push_back(p);
    if (remaining.size() == 1) {
        const int survivor = remaining[0];
        for (auto& hill : hills_) {
            if (hill.owner == survivor) continue;
            if (hill.standing()) {
                bonus_[survivor] += kHillPoints;
                hill.killed_by = survivor;  // end_turn stays "end of game" (quirk 12.10)
            }
            if (!hill.raze_points) {
                bonus_[hill.owner] += kRazePoints;
                hill.raze_points = true;
            }
        }
        for (int p = 0; p < players_; ++p) score_[p] += bonus_[p];
    }
    calc_significant_turns();
    if (cutoff_.empty()) cutoff_ = "turn limit reached";
    state_dirty_ = true;
}

// ---------------------------------------------------------------------------------------------
// Bot text

std::string AntsEngine::player_start_text() const {
    std::string out;
    auto line = [&](const char* key, long long v) {
        out += key;
        out += ' ';
        append_int(out, v);
        out += '\n';
    };
    line("turn", 0);
    line("loadtime", params_.loadtime_ms);
    line("turntime", params_.turntime_ms);
    line("rows", rows_);
    line("cols", cols_);
    line("turns", params_.turns);
    line("viewradius2", params_.viewradius2);
    line("attackradius2", params_.attackradius2);
    line("spawnradius2", params_.spawnradius2);
    line("player_seed", params_.player_seed);
    return out;
}

void AntsEngine::rebuild_state_objects() {
    // Within each kind the original sorts by (row, col, owner) = (cell, owner): sort packed keys.
    state_objects_.clear();
    std::vector<std::uint64_t>& keys = sort_keys_;
    auto emit = [&](char kind) {
        std::sort(keys.begin(), keys.end());
        for (std::uint64_t k : keys)
            push_state_object(kind, static_cast<int>(k >> 8), static_cast<int>(k & 0xff) - 1);
        keys.clear();
    };
    // Standing hills, live ants and food each sit on distinct squares, so their key order is
    // the square order: mark the squares in a bitmap and walk it instead of sorting. A square
    // marked twice (not expected) falls back to the sort, which gives the same order anyway.
    auto emit_distinct = [&](char kind) {
        std::size_t lo = cell_bits_.size(), hi = 0;
        bool distinct = true;
        for (std::uint64_t k : keys) {
            const std::size_t c = static_cast<std::size_t>(k >> 8), w = c >> 6;
            const std::uint64_t bit = std::uint64_t{1} << (c & 63);
            if (cell_bits_[w] & bit) { distinct = false; break; }
            cell_bits_[w] |= bit;
            cell_key_owner_[c] = static_cast<std::uint8_t>(k & 0xff);
            lo = std::min(lo, w);
            hi = std::max(hi, w);
        }
        if (!distinct) {
            std::fill(cell_bits_.begin(), cell_bits_.end(), 0);
            emit(kind);
            return;
        }
        for (std::size_t w = lo; w <= hi && w < cell_bits_.size(); ++w) {
            for (std::uint64_t bits = cell_bits_[w]; bits != 0; bits &= bits - 1) {
                const int c = static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
                push_state_object(kind, c, static_cast<int>(cell_key_owner_[c]) - 1);
            }
            cell_bits_[w] = 0;
        }
        keys.clear();
    };
    auto key = [](int cell, int owner) { return (static_cast<std::uint64_t>(cell) << 8) | static_cast<std::uint64_t>(owner + 1); };
    keys.clear();
    for (const auto& hill : hills_)
        if (hill.standing()) keys.push_back(key(hill.cell, hill.owner));
    emit_distinct('h');
    for (int a : live_) keys.push_back(key(ant_cell_[a], ant_owner_[a]));
    emit_distinct('a');
    for (int c : food_cells_) push_state_object('f', c, -1);  // kept in square order
    for (int a : killed_ants_) keys.push_back(key(ants_[a].cell, ant_owner_[a]));
    emit('d');
    state_dirty_ = false;
}

// Writes "row col" at p (which has room for 16 more bytes) and returns the end.
char* AntsEngine::put_coords(char* p, int c) const {
    const int r = row_of(c);
    const NumberText& row = row_text_[static_cast<std::size_t>(r)];
    const NumberText& col = col_text_[static_cast<std::size_t>(c - r * cols_)];
    std::memcpy(p, row.digits, sizeof row.digits);
    p += row.length;
    *p++ = ' ';
    std::memcpy(p, col.digits, sizeof col.digits);
    return p + col.length;
}

void AntsEngine::push_state_object(char kind, int c, int owner) {
    state_objects_.push_back({c, kind, static_cast<std::int8_t>(owner)});
}

std::string AntsEngine::player_state_text(int player) {
    if (state_dirty_) rebuild_state_objects();
    const auto& water = revealed_water_[player];
    // Upper bound: a line is at most "k 99999 99999 NN\n" (17 bytes); put_coords may write
    // up to 7 bytes beyond the number it puts.
    std::string out((water.size() + state_objects_.size()) * 17 + 16, '\0');
    char* p = out.data();
    for (int c : water) {
        *p++ = 'w';
        *p++ = ' ';
        p = put_coords(p, c);
        *p++ = '\n';
    }
    auto& sw = switch_[player];
    const auto& vision = vision_[player];
    for (const auto& obj : state_objects_) {
        if (!(vision[obj.cell] > 0 || (obj.kind == 'd' && obj.owner == player))) continue;
        *p++ = obj.kind;
        *p++ = ' ';
        p = put_coords(p, obj.cell);
        if (obj.kind != 'f') {
            // an ant can be seen for the first time in the turn it dies: number it now
            if (sw[obj.owner] < 0)
                sw[obj.owner] = static_cast<int>(std::count_if(sw.begin(), sw.end(), [](int v) { return v >= 0; }));
            *p++ = ' ';
            p = std::to_chars(p, p + 3, sw[obj.owner]).ptr;
        }
        *p++ = '\n';
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return out;
}

std::string AntsEngine::stream_start_text() const {
    std::string out = player_start_text();
    for (const auto& [key, value] : {std::pair{"food_rate", params_.food_rate}, std::pair{"food_turn", params_.food_turn},
                                     std::pair{"food_start", params_.food_start}}) {
        out += key;
        out += ' ';
        append_int(out, value);
        out += '\n';
    }
    for (const auto& row : map_rows()) {
        out += "m ";
        out += row;
        out += '\n';
    }
    return out;
}

std::string AntsEngine::full_state_text() {
    if (state_dirty_) rebuild_state_objects();
    std::string out(state_objects_.size() * 17 + 16, '\0');
    char* p = out.data();
    for (const auto& obj : state_objects_) {
        *p++ = obj.kind;
        *p++ = ' ';
        p = put_coords(p, obj.cell);
        if (obj.kind != 'f') {
            *p++ = ' ';
            p = std::to_chars(p, p + 3, static_cast<int>(obj.owner)).ptr;
        }
        *p++ = '\n';
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return out;
}

std::vector<std::string> AntsEngine::order_for_player(int player, const std::vector<std::string>& data) const {
    const auto& sw = switch_[player];
    std::vector<std::string> out;
    for (int i = 0; i < players_; ++i) {
        auto it = std::find(sw.begin(), sw.end(), i);
        out.push_back(it == sw.end() ? "None" : data[static_cast<std::size_t>(it - sw.begin())]);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Replay

std::vector<std::string> AntsEngine::map_rows() const {
    // The original renders through MAP_RENDER = "abcdefghij" "ABCDEFGHI" "0123456789" "?%*.!"
    // indexed by the square's value (+10 for a hill with an ant, +20 for a hill without one,
    // where the value of an empty hill is LAND = -2, hence 'I').
    static const std::string render = "abcdefghijABCDEFGHI0123456789?%*.!";
    auto at = [&](int index) { return render[static_cast<std::size_t>((index + static_cast<int>(render.size())) % static_cast<int>(render.size()))]; };
    std::vector<std::string> out(rows_, std::string(cols_, '.'));
    for (int c = 0; c < cells_; ++c) {
        int value = -2;  // LAND
        if (water_[c]) value = -4;
        else if (ant_at_[c] >= 0) value = ants_[ant_at_[c]].owner;
        else if (food_at_[c] >= 0) value = -3;
        if (hill_at_[c] >= 0) value += ant_at_[c] >= 0 ? 10 : 20;
        out[row_of(c)][col_of(c)] = at(value);
    }
    return out;
}

nlohmann::json AntsEngine::replaydata() const {
    using nlohmann::json;
    json r;
    r["revision"] = 3;
    r["players"] = players_;
    r["loadtime"] = params_.loadtime_ms;
    r["turntime"] = params_.turntime_ms;
    r["turns"] = params_.turns;
    r["viewradius2"] = params_.viewradius2;
    r["attackradius2"] = params_.attackradius2;
    r["spawnradius2"] = params_.spawnradius2;
    r["engine_seed"] = params_.engine_seed;
    r["player_seed"] = params_.player_seed;
    r["food_rate"] = params_.food_rate;
    r["food_turn"] = params_.food_turn;
    r["food_start"] = params_.food_start;
    // Not in the original's replays (it does not record its --attack); written only for the
    // other battle rules so `arbiter verify` replays such a game with its rule.
    if (params_.attack != AttackRule::focus) r["attack"] = std::string(attack_rule_name(params_.attack));
    r["map"] = {{"rows", rows_}, {"cols", cols_}, {"data", map_rows()}};
    json food = json::array();
    for (const auto& f : food_) {
        json item = {row_of(f.cell), col_of(f.cell), f.start_turn, f.end_turn < 0 ? turn_ + 1 : f.end_turn};
        if (f.owner != kNoOwner) item.push_back(f.owner);
        food.push_back(std::move(item));
    }
    r["food"] = std::move(food);
    json ants = json::array();
    for (const auto& a : ants_)
        ants.push_back({row_of(a.initial_cell), col_of(a.initial_cell), a.spawn_turn,
                        a.alive() ? turn_ + 1 : a.die_turn, a.owner, a.orders});
    r["ants"] = std::move(ants);
    json hills = json::array();
    for (const auto& h : hills_)
        hills.push_back({row_of(h.cell), col_of(h.cell), h.owner, h.end_turn < 0 ? turn_ + 1 : h.end_turn});
    r["hills"] = std::move(hills);
    r["scores"] = score_history_;
    r["bonus"] = bonus_;
    r["hive_history"] = hive_history_;
    r["winning_turn"] = winning_turn_;
    r["ranking_turn"] = ranking_turn_;
    r["cutoff"] = cutoff_;
    return r;
}

}  // namespace arb::ants

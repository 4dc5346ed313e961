#include "rules/ants/ants_food.hpp"

#include <algorithm>
#include <bit>
#include <deque>
#include <optional>
#include <span>

#include "core/user_error.hpp"

namespace arb::ants {

// ---------------------------------------------------------------------------------------------
// ScheduledFood

ScheduledFood::ScheduledFood(std::vector<Item> items) : items_(std::move(items)) {
    std::stable_sort(items_.begin(), items_.end(),
                     [](const Item& a, const Item& b) { return a.start_turn < b.start_turn; });
}

void ScheduledFood::place_turn(AntsEngine& engine, int turn) {
    while (next_ < items_.size() && items_[next_].start_turn <= turn) {
        const Item& item = items_[next_++];
        if (item.start_turn < turn || !engine.add_food(item.cell))
            problems_.push_back("turn " + std::to_string(turn) + ": recorded food at " +
                                std::to_string(engine.row_of(item.cell)) + " " +
                                std::to_string(engine.col_of(item.cell)) + " could not be placed");
    }
}

void ScheduledFood::start_game(AntsEngine& engine) { place_turn(engine, 0); }

int ScheduledFood::place(AntsEngine& engine, int) {
    place_turn(engine, engine.turn());
    return 0;
}

// ---------------------------------------------------------------------------------------------
// SymmetricFood (ants.md 3.7, get_map_symmetry / get_symmetric_food_sets of the original)

namespace {

constexpr int kLand = -2, kFood = -3, kWater = -4;

// The eight orientations of an offset: identity, flips, and their transposes.
std::pair<int, int> offset_aim(int row, int col, int aim) {
    switch (aim) {
        case 0: return {row, col};
        case 1: return {-row, col};
        case 2: return {row, -col};
        case 3: return {-row, -col};
        case 4: return {col, row};
        case 5: return {-col, row};
        case 6: return {col, -row};
        default: return {-col, -row};
    }
}

struct IlkMap {
    int rows, cols;
    std::vector<int> ilk;  // ant owner >= 0, or kLand / kFood / kWater
    int at(int r, int c) const {
        r %= rows; if (r < 0) r += rows;
        c %= cols; if (c < 0) c += cols;
        return ilk[static_cast<std::size_t>(r) * cols + c];
    }
};

IlkMap ilk_map(const AntsEngine& e) {
    IlkMap m{e.rows(), e.cols(), std::vector<int>(static_cast<std::size_t>(e.rows()) * e.cols(), kLand)};
    for (int c = 0; c < e.rows() * e.cols(); ++c) {
        if (e.water()[c]) m.ilk[c] = kWater;
        else if (e.ant_at(c) >= 0) m.ilk[c] = e.ants()[e.ant_at(c)].owner;
        else if (e.food_at(c) >= 0) m.ilk[c] = kFood;
    }
    return m;
}

// Does the whole torus look the same from loc1 (aim 0, as player 0) and from loc2 under `aim`
// (as `player`)? Returns the mapping of ant owners, or nothing.
std::optional<std::vector<int>> map_similar(const IlkMap& m, int r1, int c1, int r2, int c2, int aim,
                                            int player, int players) {
    std::vector<int> enemy(players, -1);
    for (int row = 0; row < m.rows; ++row)
        for (int col = 0; col < m.cols; ++col) {
            const int ilk0 = m.at(r1 + row, c1 + col);
            const auto [dr, dc] = offset_aim(row, col, aim);
            const int ilk1 = m.at(r2 + dr, c2 + dc);
            if (ilk0 == 0 && ilk1 != player) return std::nullopt;
            if (ilk0 > 0 && (ilk1 < 0 || ilk1 == player)) return std::nullopt;
            if (ilk0 < 0 && ilk1 != ilk0) return std::nullopt;
            if (ilk0 >= 0) enemy[ilk0] = ilk1;
        }
    return enemy;
}

}  // namespace

std::vector<std::vector<SymmetricFood::Aim>> SymmetricFood::symmetries(const AntsEngine& engine) {
    IlkMap m = ilk_map(engine);
    const int players = engine.players();
    std::vector<int> hills0;
    for (const auto& h : engine.hills())
        if (h.owner == 0) hills0.push_back(h.cell);
    if (hills0.empty()) throw UserError("ants: map is not symmetric: player 0 has no hill");
    struct Entry { Aim aim; std::vector<int> enemy; };
    std::vector<int> identity(players);
    for (int i = 0; i < players; ++i) identity[i] = i;
    std::vector<std::vector<Entry>> orientations{{Entry{{hills0[0], 0}, identity}}};
    const int r0 = engine.row_of(hills0[0]), c0 = engine.col_of(hills0[0]);
    for (int player = 1; player < players; ++player) {
        std::vector<int> player_hills;
        for (const auto& h : engine.hills())
            if (h.owner == player) player_hills.push_back(h.cell);
        if (player_hills.size() != hills0.size())
            throw UserError("ants: map is not symmetric: player 0 has " + std::to_string(hills0.size()) +
                            " hills while player " + std::to_string(player) + " has " +
                            std::to_string(player_hills.size()));
        std::vector<std::vector<Entry>> next;
        for (int hill : player_hills)
            for (int aim = 0; aim < 8; ++aim) {
                auto enemy = map_similar(m, r0, c0, engine.row_of(hill), engine.col_of(hill), aim, player, players);
                if (!enemy) continue;
                for (const auto& combo : orientations) {
                    auto extended = combo;
                    extended.push_back(Entry{{hill, aim}, *enemy});
                    next.push_back(std::move(extended));
                }
            }
        orientations = std::move(next);
        if (orientations.empty())
            throw UserError("ants: map is not symmetric: no orientation of player " + std::to_string(player) +
                            " matches player 0 (use --food random or --food none)");
    }
    // Double-check each combination with a marker square at offset (1, 2) from every hill.
    std::vector<std::vector<Aim>> valid;
    for (const auto& combo : orientations) {
        std::vector<std::pair<std::size_t, int>> fix;
        for (const auto& e : combo) {
            const auto [dr, dc] = offset_aim(1, 2, e.aim.aim);
            const int r = engine.wrap_row(engine.row_of(e.aim.hill_cell) + dr);
            const int c = engine.wrap_col(engine.col_of(e.aim.hill_cell) + dc);
            const std::size_t idx = static_cast<std::size_t>(r) * m.cols + c;
            fix.emplace_back(idx, m.ilk[idx]);
            m.ilk[idx] = kFood;
        }
        bool ok = true;
        const int rr = engine.row_of(combo[0].aim.hill_cell), cc = engine.col_of(combo[0].aim.hill_cell);
        for (const auto& e : combo)
            if (!map_similar(m, rr, cc, engine.row_of(e.aim.hill_cell), engine.col_of(e.aim.hill_cell), e.aim.aim,
                             e.enemy[0], players)) {
                ok = false;
                break;
            }
        if (ok) {
            std::vector<Aim> aims;
            for (const auto& e : combo) aims.push_back(e.aim);
            valid.push_back(std::move(aims));
        }
        for (auto it = fix.rbegin(); it != fix.rend(); ++it) m.ilk[it->first] = it->second;
    }
    if (valid.empty()) throw UserError("ants: map is not symmetric: no valid orientation set");
    return valid;
}

SymmetricFood::SymmetricFood(std::uint64_t seed) {
    auto rng = std::make_shared<Rng>(seed);
    below_ = [rng](std::uint64_t n) { return rng->below(n); };
}

SymmetricFood::SymmetricFood(std::shared_ptr<CPythonRandom> python) : python_order_(true) {
    below_ = [python](std::uint64_t n) { return python->randbelow(n); };
}

void SymmetricFood::check_symmetric(const AntsEngine& engine) { (void)symmetries(engine); }

std::vector<SymmetricFood::FoodSet> SymmetricFood::food_sets(const AntsEngine& engine, bool starting) const {
    const int rows = engine.rows(), cols = engine.cols();
    std::vector<std::uint8_t> near_start;
    if (starting) {
        // Squares reachable over land from a hill without leaving its view radius.
        near_start.assign(static_cast<std::size_t>(rows) * cols, 0);
        for (const auto& hill : engine.hills()) {
            std::vector<std::uint8_t> seen(near_start.size(), 0);
            std::deque<int> queue{hill.cell};
            seen[hill.cell] = 1;
            while (!queue.empty()) {
                const int c = queue.front();
                queue.pop_front();
                near_start[c] = 1;
                for (char d : {'n', 'e', 's', 'w'}) {
                    const int n = engine.step(c, d);
                    if (!seen[n] && !engine.water()[n] && engine.distance2(hill.cell, n) <= engine.params().viewradius2) {
                        seen[n] = 1;
                        queue.push_back(n);
                    }
                }
            }
        }
    }
    std::vector<FoodSet> sets;
    std::vector<std::uint8_t> visited(static_cast<std::size_t>(rows) * cols, 0);
    const int ar = engine.row_of(symmetry_[0].hill_cell), ac = engine.col_of(symmetry_[0].hill_cell);
    for (int c = 0; c < rows * cols; ++c) {
        if (visited[c] || engine.hill_at(c) >= 0) continue;
        if (starting && !near_start[c]) continue;
        const int orow = engine.row_of(c) - ar, ocol = engine.col_of(c) - ac;
        FoodSet locations;
        std::vector<std::pair<int, int>> tuples;
        for (const auto& s : symmetry_) {
            const auto [dr, dc] = offset_aim(orow, ocol, s.aim);
            const int r = engine.wrap_row(engine.row_of(s.hill_cell) + dr);
            const int k = engine.wrap_col(engine.col_of(s.hill_cell) + dc);
            tuples.emplace_back(r, k);
            if (std::find(locations.begin(), locations.end(), engine.cell(r, k)) == locations.end())
                locations.push_back(engine.cell(r, k));
        }
        if (python_order_) {  // list(set([...])) in the original
            locations.clear();
            for (const auto& [r, k] : python_set_order(tuples)) locations.push_back(engine.cell(r, k));
        }
        bool too_close = false;
        for (std::size_t i = 1; i < locations.size(); ++i)
            if (engine.distance2(locations[0], locations[i]) == 1) too_close = true;
        if (too_close) continue;
        // Quirk 12.3: water squares are not excluded, food sent there waits forever.
        if (!starting || static_cast<int>(locations.size()) == engine.players()) {
            for (int loc : locations) visited[loc] = 1;
            sets.push_back(std::move(locations));
        }
    }
    return sets;
}

int SymmetricFood::take(AntsEngine& engine, Cycle& cycle, int amount) {
    if (cycle.sets.empty()) return amount;
    while (true) {
        int s = cycle.queue.back();
        cycle.queue.pop_back();
        if (s < 0) {  // a pass is over: reshuffle for the next one
            std::vector<int> items(cycle.queue.begin(), cycle.queue.end());
            for (std::size_t i = items.size(); i-- > 1;) std::swap(items[i], items[below_(i + 1)]);
            cycle.queue.assign(items.begin(), items.end());
            cycle.queue.push_front(-1);
            s = cycle.queue.back();
            cycle.queue.pop_back();
        }
        const auto& set = cycle.sets[s];
        if (static_cast<int>(set.size()) > amount) {
            cycle.queue.push_back(s);
            engine.place_pending_food();
            return amount;
        }
        amount -= static_cast<int>(set.size());
        cycle.queue.push_front(s);
        for (int loc : set) engine.add_pending_food(loc);
    }
}

namespace {

void init_cycle(std::vector<std::vector<int>> sets, std::vector<std::vector<int>>& cycle_sets, std::deque<int>& queue) {
    cycle_sets = std::move(sets);
    queue.clear();
    for (int i = 0; i < static_cast<int>(cycle_sets.size()); ++i) queue.push_back(i);
    queue.push_back(-1);
}

// What the original's start_game asks the placer for after the visible food (its leftover is
// dropped): land_area // food_start - food_visible x players, the visible part subtracted only
// when the visible food was placed (always, in the original, which stops on maps without symmetry).
int starting_amount(const AntsEngine& engine, bool visible_placed) {
    const auto& p = engine.params();
    if (p.food_start <= 0) return 0;
    return engine.land_area() / p.food_start - (visible_placed ? p.food_visible * engine.players() : 0);
}

}  // namespace

// The final ants.py's start_game calls do_food_visible only when food_visible > 0; the symmetry
// is chosen by whichever set list is built first, so the draws are choice(symmetries), then the
// visible sets' shuffle (if any), then the normal sets' shuffle.
void SymmetricFood::start_game(AntsEngine& engine) {
    const auto all = symmetries(engine);
    symmetry_ = all[below_(all.size())];  // choice(get_map_symmetry())
    if (engine.params().food_visible > 0) place_visible(engine);
    init_cycle(food_sets(engine, false), normal_.sets, normal_.queue);
    started_ = true;
    take(engine, normal_, starting_amount(engine, true));  // leftovers of the start are dropped
}

void SymmetricFood::place_visible(AntsEngine& engine) {
    init_cycle(food_sets(engine, true), visible_.sets, visible_.queue);
    take(engine, visible_, engine.params().food_visible * engine.players());  // leftovers dropped
}

bool SymmetricFood::start_visible(AntsEngine& engine) {
    if (engine.params().food_visible <= 0) return false;  // no visible food, no symmetry needed
    std::vector<std::vector<Aim>> all;
    try {
        all = symmetries(engine);
    } catch (const UserError&) {
        return false;  // the original raises here; we go on without the visible food
    }
    symmetry_ = all[below_(all.size())];
    place_visible(engine);
    return true;
}

int SymmetricFood::place(AntsEngine& engine, int amount) {
    if (!started_) return amount;
    return take(engine, normal_, amount);
}

// ---------------------------------------------------------------------------------------------
// RandomFood (do_food_random)

void RandomFood::start_game(AntsEngine& engine) {
    const bool visible = visible_.start_visible(engine);
    place(engine, starting_amount(engine, visible));
}

int RandomFood::place(AntsEngine& engine, int amount) {
    if (engine.land_area() <= 0) return amount;
    for (int i = 0; i < amount; ++i) {
        for (int tries = 0; tries < 1000000; ++tries) {
            // randrange(rows), randrange(cols) as do_food_random
            const int row = static_cast<int>(python_->randbelow(static_cast<std::uint64_t>(engine.rows())));
            const int col = static_cast<int>(python_->randbelow(static_cast<std::uint64_t>(engine.cols())));
            if (engine.is_free_land(engine.cell(row, col))) {
                engine.add_pending_food(engine.cell(row, col));
                break;
            }
        }
    }
    engine.place_pending_food();
    return 0;
}

// ---------------------------------------------------------------------------------------------
// SectionsFood (do_food_sections over access_map)

std::vector<std::vector<int>> SectionsFood::sections(const AntsEngine& engine) {
    const int cells = engine.rows() * engine.cols();
    constexpr int kWaterSquare = -2, kUnreached = -1;
    std::vector<int> distance(static_cast<std::size_t>(cells), kUnreached);
    std::vector<std::uint32_t> reached_by(static_cast<std::size_t>(cells), 0);  // bit per player
    std::vector<int> discovered;  // the original's dict insertion order
    std::deque<int> queue;
    for (int c = 0; c < cells; ++c) {
        if (const int a = engine.ant_at(c); a >= 0) {
            distance[c] = 0;
            reached_by[c] |= 1u << engine.ants()[a].owner;
            discovered.push_back(c);
            queue.push_back(c);
        } else if (engine.water()[c]) {
            distance[c] = kWaterSquare;
        }
    }
    // A square is popped only after every square one step nearer, so its player set is final.
    while (!queue.empty()) {
        const int c = queue.front();
        queue.pop_front();
        for (char d : {'n', 'e', 's', 'w'}) {  // the original's AIM order
            const int n = engine.step(c, d);
            if (distance[n] == kWaterSquare) continue;
            if (distance[n] == kUnreached) {
                distance[n] = distance[c] + 1;
                reached_by[n] |= reached_by[c];
                discovered.push_back(n);
                queue.push_back(n);
            } else if (distance[n] == distance[c] + 1) {
                reached_by[n] |= reached_by[c];
            }
        }
    }
    std::vector<std::vector<int>> out(static_cast<std::size_t>(engine.players()));
    for (int c : discovered)
        if (std::has_single_bit(reached_by[c])) out[static_cast<std::size_t>(std::countr_zero(reached_by[c]))].push_back(c);
    return out;
}

void SectionsFood::start_game(AntsEngine& engine) {
    sections_ = sections(engine);  // the original computes it in __init__, from the starting ants
    const bool visible = visible_.start_visible(engine);
    place(engine, starting_amount(engine, visible));
}

int SectionsFood::place(AntsEngine& engine, int amount) {
    const int players = engine.players();
    // Python's // and % (the start amount can be negative: no rounds then)
    int rounds = amount / players, left_over = amount % players;
    if (left_over < 0) {
        left_over += players;
        --rounds;
    }
    for (int round = 0; round < rounds; ++round)
        for (const auto& section : sections_) {
            // The original's choice() raises on an empty section; we skip that player (no draw).
            if (section.empty()) continue;
            const int c = section[python_->randbelow(section.size())];
            if (engine.is_free_land(c)) engine.add_pending_food(c);
        }
    engine.place_pending_food();
    return left_over;
}

}  // namespace arb::ants

// The Ants battle phase (ants.md 3.3): the contest's focus rule and the original's other
// --attack rules (closest, support, damage).
#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {

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
            const int d2 = engine_detail::torus_distance2(rows_, cols_, ant_cell_[a], v);
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

}  // namespace arb::ants

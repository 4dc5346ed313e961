#include "arbiter/tournament/formats.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "arbiter/tournament/map_pool.hpp"
#include "core/rng.hpp"

namespace arb::tournament {
namespace {

// Streams of derive_seed(seed, {round, stream, ...}) for decisions that are not match seeds.
// Match seeds use {round, group, seating}; these use a 4-element path so they cannot collide.
constexpr std::uint64_t kGroupingStream = 1;
constexpr std::uint64_t kCyclicOrderStream = 2;

std::vector<std::string> names_of(const std::vector<BotSpec>& bots) {
    std::vector<std::string> names;
    for (const auto& b : bots) names.push_back(b.name);
    return names;
}

class PlannerBase : public RoundPlanner {
public:
    PlannerBase(const TournamentConfig& config)
        : config_(config), participants_(names_of(participants_of(config))),
          pool_(pool_in_seed_order(config.map_pool, config.seed)) {
        arrangements_[config.players] = seat_arrangements(config.players, config.seating);
        for (int k : player_counts(pool_)) arrangements_[k] = seat_arrangements(k, config.seating);
    }

    const std::vector<std::string>& participants() const override { return participants_; }

protected:
    int seatings_per_group(int size) const {
        return config_.all_seatings ? static_cast<int>(arrangements_.at(size).size()) : 1;
    }

    // The round's map from the pool ("" without one) and the size of its groups.
    RoundMap round_map(int round) const {
        RoundMap m = map_of_round(pool_, round);
        if (m.players == 0) m.players = config_.players;
        return m;
    }

    // Adds the matches of one group (members in base seat order) to the round, all on `map`.
    void add_group(Round& round, int group, const std::vector<int>& members, const std::string& map) const {
        const std::uint64_t deal_set = derive_seed(config_.seed, {static_cast<std::uint64_t>(round.index)});
        const int size = static_cast<int>(members.size());
        const auto& arrangements = arrangements_.at(size);
        const int count = static_cast<int>(arrangements.size());
        for (int s = 0; s < seatings_per_group(size); ++s) {
            // Without all_seatings, the one arrangement a group plays moves on every round.
            const int seating = config_.all_seatings ? s : (round.index + group) % count;
            ScheduledMatch m;
            m.round = round.index;
            m.group = group;
            m.seating = seating;
            m.key = schedule_key(config_.name, round.index, group, seating);
            for (int seat : arrangements[seating]) m.bots.push_back(participants_[members[seat]]);
            m.seed = derive_seed(config_.seed, {static_cast<std::uint64_t>(round.index), static_cast<std::uint64_t>(group),
                                                static_cast<std::uint64_t>(seating)});
            m.deal_set = deal_set;
            m.map = map;
            round.matches.push_back(std::move(m));
        }
    }

    const TournamentConfig config_;
    const std::vector<std::string> participants_;
    const std::vector<PoolMap> pool_;  // in the seed's order
    std::map<int, std::vector<std::vector<int>>> arrangements_;  // by group size
};

class GroupsPlanner final : public PlannerBase {
public:
    GroupsPlanner(const TournamentConfig& config, RatingFit fit) : PlannerBase(config), fit_(std::move(fit)) {}

    bool independent(int round) const override { return round < config_.random_rounds; }

    int matches_in_round(int round) const override {
        const int size = round_map(round).players;
        return static_cast<int>(participants_.size()) / size * seatings_per_group(size);
    }

    Round plan(int round_index, const History& history) const override {
        Round round{round_index, {}};
        const RoundMap map = round_map(round_index);
        const int n = static_cast<int>(participants_.size());
        const int size = map.players;
        // Those left over by groups of this round's size sit it out, in turn (map_pool.hpp).
        std::vector<int> playing;
        const std::vector<int> out = config_.groups_by_map ? sitting_out(n, size, map.visit, config_.seed) : std::vector<int>{};
        for (int i = 0; i < n; ++i)
            if (!std::binary_search(out.begin(), out.end(), i)) playing.push_back(i);
        const int groups_count = static_cast<int>(playing.size()) / size;
        std::vector<std::vector<int>> groups;
        if (independent(round_index) || history.results.empty()) {
            // Random rounds: one shuffle of everybody, cut into consecutive groups.
            std::vector<int> order = playing;
            Rng rng(derive_seed(config_.seed, {static_cast<std::uint64_t>(round_index), kGroupingStream, 0, 0}));
            rng.shuffle(std::span<int>(order));
            for (int g = 0; g < groups_count; ++g)
                groups.emplace_back(order.begin() + g * size, order.begin() + (g + 1) * size);
        } else {
            // Seed 000: highest-rated unassigned bot first, opponents that shrink its variance most.
            const RatingModel model = fit_(history);
            playing.resize(static_cast<std::size_t>(groups_count * size));
            PairingOptions options;
            options.group_size = size;
            options.games_per_pair = seatings_per_group(size);
            groups = variance_minimising_groups(model, playing, history.meetings, options).groups;
        }
        for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
            auto& members = groups[g];
            if (config_.vary_cyclic_order) {
                Rng rng(derive_seed(config_.seed, {static_cast<std::uint64_t>(round_index), kCyclicOrderStream,
                                                   static_cast<std::uint64_t>(g), 0}));
                rng.shuffle(std::span<int>(members));
            } else {
                // A fixed cyclic order: the same members always sit in the same order.
                std::sort(members.begin(), members.end());
            }
            add_group(round, g, members, map.path);
        }
        return round;
    }

private:
    RatingFit fit_;
};

// Round-robin and gauntlet: a fixed list of encounters, all played every round.
class EncounterPlanner final : public PlannerBase {
public:
    explicit EncounterPlanner(const TournamentConfig& config) : PlannerBase(config) {
        const int n = static_cast<int>(participants_.size());
        const int k = config.players;
        if (config.format == Format::round_robin) {
            for_each_combination(n, k, {}, [&](std::vector<int> c) { encounters_.push_back(std::move(c)); });
        } else {
            std::vector<int> challengers, others;
            for (int i = 0; i < n; ++i) {
                const bool is_challenger = std::find(config.challengers.begin(), config.challengers.end(),
                                                     participants_[i]) != config.challengers.end();
                (is_challenger ? challengers : others).push_back(i);
            }
            for (int ch : challengers) {
                for_each_combination(static_cast<int>(others.size()), k - 1, {}, [&](std::vector<int> c) {
                    std::vector<int> members{ch};
                    for (int i : c) members.push_back(others[i]);
                    encounters_.push_back(std::move(members));
                });
            }
        }
    }

    bool independent(int) const override { return true; }
    int matches_in_round(int) const override {
        return static_cast<int>(encounters_.size()) * seatings_per_group(config_.players);
    }

    // Every encounter of a round plays the round's map (the pool holds maps of this size only).
    Round plan(int round_index, const History&) const override {
        Round round{round_index, {}};
        const std::string map = round_map(round_index).path;
        for (int e = 0; e < static_cast<int>(encounters_.size()); ++e) add_group(round, e, encounters_[e], map);
        return round;
    }

private:
    template <class Fn>
    static void for_each_combination(int n, int k, std::vector<int> prefix, const Fn& fn) {
        if (static_cast<int>(prefix.size()) == k) {
            fn(prefix);
            return;
        }
        const int start = prefix.empty() ? 0 : prefix.back() + 1;
        for (int i = start; i <= n - (k - static_cast<int>(prefix.size())); ++i) {
            prefix.push_back(i);
            for_each_combination(n, k, prefix, fn);
            prefix.pop_back();
        }
    }

    std::vector<std::vector<int>> encounters_;
};

}  // namespace

std::string schedule_key(const std::string& tournament, int round, int group, int seating) {
    return fmt::format("{}/r{}/g{}/s{}", tournament, round, group, seating);
}

std::vector<BotSpec> participants_of(const TournamentConfig& config) {
    std::vector<BotSpec> all = config.bots;
    std::size_t house = config.house_bots.size();
    // Groups sized by the pool's maps take every house bot; those left over sit out in turn.
    if (config.format == Format::groups && config.players > 0 && !config.groups_by_map) {
        const std::size_t field = config.bots.size();
        house = (config.players - field % config.players) % config.players;
    }
    for (std::size_t i = 0; i < house && i < config.house_bots.size(); ++i) all.push_back(config.house_bots[i]);
    return all;
}

std::vector<std::vector<int>> seat_arrangements(int k, Seating seating) {
    std::vector<std::vector<int>> out;
    std::vector<int> base(k);
    std::iota(base.begin(), base.end(), 0);
    if (seating == Seating::rotations) {
        for (int r = 0; r < k; ++r) {
            std::vector<int> order(k);
            for (int i = 0; i < k; ++i) order[i] = base[(i + r) % k];
            out.push_back(std::move(order));
        }
    } else {
        do out.push_back(base);
        while (std::next_permutation(base.begin(), base.end()));
    }
    return out;
}

std::unique_ptr<RoundPlanner> make_planner(const TournamentConfig& config, RatingFit fit) {
    if (config.format == Format::groups) return std::make_unique<GroupsPlanner>(config, std::move(fit));
    return std::make_unique<EncounterPlanner>(config);
}

}  // namespace arb::tournament

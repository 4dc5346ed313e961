#include "arbiter/cli/diff_ladder.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arbiter/ladder/ladder.hpp"
#include "arbiter/ladder/ladder_store.hpp"
#include "core/user_error.hpp"
#include "rating/store.hpp"

namespace arb::cli {
namespace {

constexpr int kDefaultLadderGames = 40;

const ladder::LadderBot& registered(const std::vector<ladder::LadderBot>& bots, const std::string& name,
                                    const std::string& db) {
    const auto it = std::find_if(bots.begin(), bots.end(), [&](const auto& b) { return b.name == name; });
    if (it == bots.end()) throw UserError(fmt::format("{}: no bot '{}' registered in its ladder", db, name));
    return *it;
}

// NEW: the one named, else the latest registered; OLD: the one named, else the version of NEW's
// family registered before it.
std::pair<ladder::LadderBot, ladder::LadderBot> versions(const std::vector<ladder::LadderBot>& bots,
                                                         const LadderDiffChoice& choice) {
    if (bots.empty()) throw UserError(fmt::format("{}: no ladder of this game in it", choice.db));
    const ladder::LadderBot latest = *std::max_element(bots.begin(), bots.end(),
                                                       [](const auto& a, const auto& b) { return a.seq < b.seq; });
    const ladder::LadderBot newer = choice.new_name.empty() ? latest : registered(bots, choice.new_name, choice.db);
    if (!choice.old_name.empty()) return {registered(bots, choice.old_name, choice.db), newer};
    const ladder::LadderBot* older = nullptr;
    for (const auto& b : bots)
        if (b.family == newer.family && b.seq < newer.seq && (!older || b.seq > older->seq)) older = &b;
    if (!older)
        throw UserError(fmt::format("{}: '{}' has no earlier version in its ladder (family '{}'); name OLD NEW", choice.db,
                                    newer.name, newer.family));
    return {*older, newer};
}

// The ladder match's options as the game's options (values as the record holds them).
GameOptions options_of(const GameDescriptor& game, const MatchRecord& record) {
    std::map<std::string, std::string> given;
    const nlohmann::json config = nlohmann::json::parse(record.config_json, nullptr, false);
    if (config.is_object())
        for (const auto& [key, value] : config.items())
            if (!(value.is_string() && value.get<std::string>().empty()))
                given[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return GameOptions(game.options, given);
}

}  // namespace

std::string plan_from_ladder(const LadderDiffChoice& choice, diff::DiffPlan& plan) {
    const GameDescriptor& game = *plan.game;
    auto store = rating::Store::open(choice.db, rating::OpenMode::read_write);
    ladder::LadderStore ladder_store(store);
    const auto bots = ladder_store.bots(game.name);
    const auto [older, newer] = versions(bots, choice);
    plan.old_bot = older.spec;
    plan.new_bot = newer.spec;
    const int wanted = choice.games.value_or(kDefaultLadderGames);
    for (const auto& [key, record] : ladder_store.matches(ladder::ladder_tournament(game.name))) {
        if (static_cast<int>(plan.fixed.size()) >= wanted) break;
        diff::DiffPlan::FixedGame fixed;
        fixed.seed = record.seed;
        fixed.deal_set = record.deal_set;
        fixed.rotation = record.rotation;
        fixed.seat = -1;
        for (const auto& p : record.participants) {
            if (p.bot == newer.name) fixed.seat = static_cast<int>(fixed.bots.size());
            fixed.bots.push_back(registered(bots, p.bot, choice.db).spec);
        }
        if (fixed.seat < 0) continue;
        if (plan.fixed.empty()) plan.options = options_of(game, record);
        plan.fixed.push_back(std::move(fixed));
    }
    if (plan.fixed.empty())
        throw UserError(fmt::format("{}: no ladder match of '{}' is stored: run the ladder first", choice.db, newer.name));
    plan.games = static_cast<int>(plan.fixed.size());
    plan.seats = static_cast<int>(plan.fixed.front().bots.size());
    return fmt::format("from the ladder in {}: {} (old) and {} (new) on {} of {}'s ladder matches, their seeds, seats "
                       "and opponents",
                       choice.db, older.name, newer.name, plan.fixed.size(), newer.name);
}

}  // namespace arb::cli

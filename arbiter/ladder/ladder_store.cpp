#include "arbiter/ladder/ladder_store.hpp"

#include <spdlog/spdlog.h>

#include "arbiter/ladder/ladder.hpp"
#include "core/user_error.hpp"

namespace arb::ladder {
LadderStore::LadderStore(rating::Store& store) : tables_(store) {}

void LadderStore::register_bot(const std::string& game, const BotSpec& bot) {
    const std::string spec = to_spec_string(bot);
    tables_.store().transaction([&] {
        if (const auto stored = tables_.bot_spec(game, bot.name)) {
            if (*stored != spec) {
                throw UserError("ladder bot '" + bot.name + "' is already registered with another command (" +
                                *stored + "); give a new version a new name");
            }
            return;
        }
        tables_.insert_bot(game, bot.name, spec, family_of(bot.name));
        spdlog::info("ladder {}: registered '{}'", game, bot.name);
    });
}

std::vector<LadderBot> LadderStore::bots(const std::string& game) const {
    std::vector<LadderBot> out;
    for (const auto& row : tables_.bots(game)) out.push_back({row.name, parse_bot_spec(row.spec), row.family, row.seq});
    return out;
}

std::map<std::string, MatchRecord> LadderStore::matches(const std::string& tournament) const {
    std::map<std::string, MatchRecord> stored;
    rating::MatchFilter filter;
    filter.tournament = tournament;
    for (auto& m : tables_.store().matches(filter))
        if (m.schedule_key) stored.emplace(*m.schedule_key, std::move(m.record));
    return stored;
}

void LadderStore::store_run(const LadderOutcome& outcome) {
    tables_.insert_run({outcome.game, outcome.bot, outcome.previous, std::string(to_string(outcome.verdict)),
                        outcome.los, outcome.matches_this_run, outcome.snapshot_id, outcome.to_json()});
}

}  // namespace arb::ladder

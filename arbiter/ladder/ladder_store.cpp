#include "arbiter/ladder/ladder_store.hpp"

#include <spdlog/spdlog.h>

#include "arbiter/ladder/ladder.hpp"
#include "core/user_error.hpp"

namespace arb::ladder {
namespace {

const std::vector<std::string>& migrations() {
    static const std::vector<std::string> m = {
        // v1
        "CREATE TABLE ladder_bot ("
        "  game TEXT NOT NULL,"
        "  name TEXT NOT NULL,"
        "  spec TEXT NOT NULL,"
        "  family TEXT NOT NULL,"
        "  registered_at TEXT NOT NULL,"
        "  seq INTEGER NOT NULL,"
        "  PRIMARY KEY (game, name));"
        "CREATE TABLE ladder_run ("
        "  id INTEGER PRIMARY KEY,"
        "  game TEXT NOT NULL,"
        "  bot TEXT NOT NULL,"
        "  previous TEXT,"
        "  finished_at TEXT NOT NULL,"
        "  verdict TEXT NOT NULL,"
        "  los REAL,"
        "  matches INTEGER NOT NULL,"
        "  snapshot_id INTEGER,"
        "  outcome_json TEXT NOT NULL);",
    };
    return m;
}

}  // namespace

LadderStore::LadderStore(rating::Store& store) : store_(store) { store_.ensure_component_schema("ladder", migrations()); }

void LadderStore::register_bot(const std::string& game, const BotSpec& bot) {
    const std::string spec = to_spec_string(bot);
    store_.transaction([&] {
        auto q = store_.prepare("SELECT spec FROM ladder_bot WHERE game = ?1 AND name = ?2");
        q.bind(1, game).bind(2, bot.name);
        if (q.step()) {
            if (q.column_text(0) != spec) {
                throw UserError("ladder bot '" + bot.name + "' is already registered with another command (" +
                                q.column_text(0) + "); give a new version a new name");
            }
            return;
        }
        auto seq = store_.prepare("SELECT COALESCE(MAX(seq), 0) + 1 FROM ladder_bot WHERE game = ?1");
        seq.bind(1, game);
        seq.step();
        const std::int64_t next = seq.column_int64(0);
        auto insert = store_.prepare(
            "INSERT INTO ladder_bot(game, name, spec, family, registered_at, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        insert.bind(1, game).bind(2, bot.name).bind(3, spec).bind(4, family_of(bot.name));
        insert.bind(5, utc_timestamp_now()).bind(6, next);
        insert.run();
        spdlog::info("ladder {}: registered '{}'", game, bot.name);
    });
}

std::vector<LadderBot> LadderStore::bots(const std::string& game) const {
    std::vector<LadderBot> out;
    auto q = store_.prepare("SELECT name, spec, family, seq FROM ladder_bot WHERE game = ?1 ORDER BY seq");
    q.bind(1, game);
    while (q.step()) out.push_back({q.column_text(0), parse_bot_spec(q.column_text(1)), q.column_text(2), q.column_int64(3)});
    return out;
}

std::map<std::string, MatchRecord> LadderStore::matches(const std::string& tournament) const {
    std::map<std::string, MatchRecord> stored;
    rating::MatchFilter filter;
    filter.tournament = tournament;
    for (auto& m : store_.matches(filter))
        if (m.schedule_key) stored.emplace(*m.schedule_key, std::move(m.record));
    return stored;
}

void LadderStore::store_run(const LadderOutcome& outcome) {
    auto insert = store_.prepare(
        "INSERT INTO ladder_run(game, bot, previous, finished_at, verdict, los, matches, snapshot_id, outcome_json) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    insert.bind(1, outcome.game).bind(2, outcome.bot).bind(3, outcome.previous).bind(4, utc_timestamp_now());
    insert.bind(5, to_string(outcome.verdict)).bind(6, outcome.los).bind(7, outcome.matches_this_run);
    insert.bind(8, outcome.snapshot_id).bind(9, outcome.to_json());
    insert.run();
}

}  // namespace arb::ladder

// The store's own schema: the migrations that build it, version by version, and the runner that
// applies a list of migrations (shared with the components that keep tables in the store).
#include "rating/store_internal.hpp"

namespace arb::rating::store_internal {

// migrations[k] takes the store schema from version k to k+1 (k = 0: a new, empty file).
const std::vector<std::string>& store_migrations() {
    static const std::vector<std::string> migrations = {
        // v1
        R"sql(
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    command TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    first_seen TEXT NOT NULL,
    UNIQUE (name, command, version)
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config_json TEXT NOT NULL,
    seed INTEGER NOT NULL,            -- uint64 stored by bit pattern
    deal_set INTEGER,                 -- uint64 stored by bit pattern, NULL when none
    rotation INTEGER NOT NULL,
    end_reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    transcript_path TEXT NOT NULL,
    replay_path TEXT NOT NULL,
    started_at TEXT NOT NULL,
    wall_s REAL NOT NULL,
    machine_load REAL NOT NULL,
    tournament TEXT,
    schedule_key TEXT UNIQUE,
    stored_at TEXT NOT NULL
);
CREATE INDEX matches_by_game_time ON matches (game, started_at);
CREATE INDEX matches_by_time ON matches (started_at);
CREATE INDEX matches_by_tournament ON matches (tournament);
CREATE TABLE participants (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,        -- index in MatchRecord::participants
    bot_id INTEGER NOT NULL REFERENCES bots (id),
    seat INTEGER NOT NULL,
    score REAL NOT NULL,
    rank INTEGER NOT NULL,
    status TEXT NOT NULL,
    detail TEXT NOT NULL,
    wall_used_s REAL NOT NULL,
    cpu_used_s REAL NOT NULL,
    longest_reply_s REAL NOT NULL,
    requests INTEGER NOT NULL,
    peak_memory_kib INTEGER NOT NULL,
    PRIMARY KEY (match_id, position)
) WITHOUT ROWID;
CREATE INDEX participants_by_bot ON participants (bot_id);
CREATE TABLE pairs (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,        -- index in MatchRecord::pairs
    a INTEGER NOT NULL,               -- participant positions; a is "white"
    b INTEGER NOT NULL,
    score_a REAL NOT NULL,
    PRIMARY KEY (match_id, position)
) WITHOUT ROWID;
CREATE TABLE rating_snapshots (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    game TEXT NOT NULL,
    params_json TEXT NOT NULL
);
CREATE INDEX rating_snapshots_by_label ON rating_snapshots (label, id);
CREATE TABLE rating_snapshot_rows (
    snapshot_id INTEGER NOT NULL REFERENCES rating_snapshots (id) ON DELETE CASCADE,
    bot TEXT NOT NULL,
    rank INTEGER NOT NULL,
    elo REAL NOT NULL,
    plus REAL NOT NULL,
    minus REAL NOT NULL,
    games INTEGER NOT NULL,
    score REAL NOT NULL,
    draws REAL NOT NULL,
    PRIMARY KEY (snapshot_id, bot)
) WITHOUT ROWID;
CREATE TABLE component_schemas (
    component TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
)sql",
        // v2: why a participant failed (exit, limit hit, the tail of its stderr)
        R"sql(
ALTER TABLE participants ADD COLUMN exit_code INTEGER;
ALTER TABLE participants ADD COLUMN exit_signal INTEGER;
ALTER TABLE participants ADD COLUMN limit_hit TEXT NOT NULL DEFAULT '';
ALTER TABLE participants ADD COLUMN stderr_tail TEXT NOT NULL DEFAULT '';
)sql",
    };
    return migrations;
}

void run_migrations(Database& db, const std::vector<std::string>& migrations, int from) {
    for (std::size_t v = static_cast<std::size_t>(from); v < migrations.size(); ++v) db.exec(migrations[v]);
}

}  // namespace arb::rating::store_internal

// The store's rating snapshots (a rating table kept with its parameters) and the schema versions
// of the components that keep tables of their own in it (tournaments, ladders).
#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rating/store.hpp"
#include "rating/store_internal.hpp"

namespace arb::rating {

// ---------------------------------------------------------------------------------------------
// Snapshots

std::int64_t Store::save_snapshot(const Snapshot& snapshot) {
    std::int64_t id = 0;
    db_.transaction([&] {
        Statement head =
            db_.prepare("INSERT INTO rating_snapshots (label, created_at, game, params_json) VALUES (?, ?, ?, ?)");
        head.bind(1, snapshot.label)
            .bind(2, snapshot.created_at.empty() ? utc_timestamp_now() : snapshot.created_at)
            .bind(3, snapshot.game)
            .bind(4, snapshot.params_json);
        head.run();
        id = db_.last_insert_rowid();
        Statement row = db_.prepare(
            "INSERT INTO rating_snapshot_rows (snapshot_id, bot, rank, elo, plus, minus, games, score, draws)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        for (const SnapshotRow& r : snapshot.rows) {
            row.bind(1, id)
                .bind(2, r.bot)
                .bind(3, r.rank)
                .bind(4, r.elo)
                .bind(5, r.plus)
                .bind(6, r.minus)
                .bind(7, r.games)
                .bind(8, r.score)
                .bind(9, r.draws);
            row.run();
        }
    });
    return id;
}

std::vector<Snapshot> Store::snapshots(const std::optional<std::string>& label) const {
    std::vector<Snapshot> out;
    Statement head = prepare(label ? "SELECT id, label, created_at, game, params_json FROM rating_snapshots"
                                     " WHERE label = ? ORDER BY id"
                                   : "SELECT id, label, created_at, game, params_json FROM rating_snapshots ORDER BY id");
    if (label) head.bind(1, *label);
    Statement rows = prepare(
        "SELECT bot, rank, elo, plus, minus, games, score, draws FROM rating_snapshot_rows"
        " WHERE snapshot_id = ? ORDER BY rank, bot");
    while (head.step()) {
        Snapshot s;
        s.id = head.column_int64(0);
        s.label = head.column_text(1);
        s.created_at = head.column_text(2);
        s.game = head.column_text(3);
        s.params_json = head.column_text(4);
        rows.bind(1, s.id);
        while (rows.step()) {
            s.rows.push_back({rows.column_text(0), rows.column_int(1), rows.column_double(2), rows.column_double(3),
                              rows.column_double(4), rows.column_int64(5), rows.column_double(6),
                              rows.column_double(7)});
        }
        rows.reset();
        out.push_back(std::move(s));
    }
    return out;
}

std::optional<Snapshot> Store::latest_snapshot(const std::string& label) const {
    auto all = snapshots(label);
    if (all.empty()) return std::nullopt;
    return std::move(all.back());
}

// ---------------------------------------------------------------------------------------------
// Components

int Store::component_schema_version(const std::string& component) const {
    Statement st = prepare("SELECT version FROM component_schemas WHERE component = ?");
    st.bind(1, component);
    return st.step() ? st.column_int(0) : 0;
}

int Store::ensure_component_schema(const std::string& component, const std::vector<std::string>& migrations) {
    const int target = static_cast<int>(migrations.size());
    if (component_schema_version(component) == target) return target;
    if (db_.read_only())
        throw UserError(fmt::format("database '{}': the {} tables need a schema update; open it for writing",
                                    path(), component));
    int version = 0;
    db_.transaction([&] {
        version = component_schema_version(component);
        if (version > target)
            throw UserError(fmt::format("database '{}': the {} tables have schema version {}, newer than this "
                                        "arbiter knows ({})",
                                        path(), component, version, target));
        if (version == target) return;
        store_internal::run_migrations(db_, migrations, version);
        Statement st = db_.prepare(
            "INSERT INTO component_schemas (component, version) VALUES (?, ?)"
            " ON CONFLICT (component) DO UPDATE SET version = excluded.version");
        st.bind(1, component).bind(2, target);
        st.run();
        version = target;
    });
    return version;
}

}  // namespace arb::rating

// The live page's reads of the tournament's and the ladder's tables (rating/run_status.hpp).
#include "rating/run_status.hpp"

#include "rating/store_internal.hpp"

namespace arb::rating {
namespace {

using store_internal::has_table;
using store_internal::StoreAccess;

}  // namespace

std::vector<TournamentStatusRow> tournament_statuses(const Store& store) {
    std::vector<TournamentStatusRow> out;
    if (!has_table(store, "tournament")) return out;
    // One statement, so that the counts and the runner are of one snapshot of the file.
    auto st = StoreAccess::prepare(
        store,
        "SELECT t.name, t.game, t.created_at, t.runner_pid, t.runner_host, t.runner_since,"
        "  (SELECT COUNT(*) FROM tournament_match s WHERE s.tournament = t.name),"
        "  (SELECT COUNT(*) FROM matches m WHERE m.tournament = t.name),"
        "  (SELECT COUNT(*) FROM matches m WHERE m.tournament = t.name AND m.stored_at >= t.runner_since),"
        "  (SELECT MIN(started_at) FROM matches m WHERE m.tournament = t.name),"
        "  (SELECT MAX(stored_at) FROM matches m WHERE m.tournament = t.name),"
        "  (SELECT transcript_path FROM matches m WHERE m.tournament = t.name ORDER BY id DESC LIMIT 1)"
        " FROM tournament t ORDER BY t.created_at, t.name");
    while (st.step()) {
        TournamentStatusRow r;
        r.name = st.column_text(0);
        r.game = st.column_text(1);
        r.created_at = st.column_text(2);
        r.runner.pid = st.column_optional_int64(3);
        r.runner.host = st.column_optional_text(4);
        r.runner.since = st.column_optional_text(5);
        r.scheduled = st.column_int(6);
        r.stored = st.column_int(7);
        r.stored_this_run = st.column_int(8);
        r.first_started_at = st.column_optional_text(9);
        r.last_stored_at = st.column_optional_text(10);
        r.last_transcript = st.column_optional_text(11);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<LadderRunView> ladder_runs(const Store& store) {
    std::vector<LadderRunView> out;
    if (!has_table(store, "ladder_run")) return out;
    auto st = StoreAccess::prepare(store,
                                   "SELECT game, bot, previous, finished_at, verdict, COALESCE(los, 0.5), matches,"
                                   " COALESCE(snapshot_id, 0) FROM ladder_run ORDER BY id");
    while (st.step()) {
        LadderRunView r;
        r.game = st.column_text(0);
        r.bot = st.column_text(1);
        r.previous = st.column_optional_text(2);
        r.finished_at = st.column_text(3);
        r.verdict = st.column_text(4);
        r.los = st.column_double(5);
        r.matches = st.column_int(6);
        r.snapshot_id = st.column_int64(7);
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace arb::rating

#include "arbiter/report/report_data.hpp"

#include <unordered_map>

namespace arb::report {
namespace {

using rating::Statement;

// " WHERE m.game = ?1 [AND m.tournament = ?2]" over table alias m.
std::string match_where(const std::optional<std::string>& tournament) {
    return tournament ? " WHERE m.game = ?1 AND m.tournament = ?2" : " WHERE m.game = ?1";
}

void bind_where(Statement& st, const std::string& game, const std::optional<std::string>& tournament) {
    st.bind(1, game);
    if (tournament) st.bind(2, *tournament);
}

ReportSeat read_seat(const Statement& st) {
    ReportSeat s;
    s.bot = st.column_text(1);
    s.seat = st.column_int(2);
    s.score = st.column_double(3);
    s.rank = st.column_int(4);
    s.status = st.column_text(5);
    s.detail = st.column_text(6);
    s.wall_used_s = st.column_double(7);
    s.cpu_used_s = st.column_double(8);
    s.longest_reply_s = st.column_double(9);
    s.requests = st.column_int64(10);
    s.peak_memory_kib = st.column_int64(11);
    s.stderr_tail = st.column_text(12);
    return s;
}

std::string relocated(const std::string& file, const std::filesystem::path& files_root) {
    std::error_code ec;
    if (file.empty() || std::filesystem::exists(file, ec)) return file;
    const std::string marker = "/" + files_root.filename().string() + "/";
    const auto at = file.rfind(marker);
    if (at == std::string::npos) return file;
    const std::filesystem::path moved = files_root / file.substr(at + marker.size());
    return std::filesystem::exists(moved, ec) ? moved.string() : file;
}

}  // namespace

void relocate_match_files(std::vector<ReportMatch>& matches, const std::filesystem::path& files_root) {
    if (files_root.empty() || files_root.filename().empty()) return;
    for (auto& m : matches) {
        m.transcript_path = relocated(m.transcript_path, files_root);
        m.replay_path = relocated(m.replay_path, files_root);
    }
}

std::vector<ReportMatch> load_report_matches(const rating::Store& store, const std::string& game,
                                             const std::optional<std::string>& tournament) {
    const std::string where = match_where(tournament);
    std::vector<ReportMatch> out;
    std::unordered_map<std::int64_t, std::size_t> position_of;
    Statement m = store.prepare(
        "SELECT m.id, m.game, m.config_json, m.seed, m.rotation, m.end_reason, m.turns, m.transcript_path,"
        " m.replay_path, m.started_at, m.wall_s, m.tournament, m.schedule_key FROM matches m" +
        where + " ORDER BY m.id");
    bind_where(m, game, tournament);
    while (m.step()) {
        ReportMatch r;
        r.id = m.column_int64(0);
        r.game = m.column_text(1);
        r.config_json = m.column_text(2);
        r.seed = static_cast<std::uint64_t>(m.column_int64(3));  // stored by bit pattern
        r.rotation = m.column_int(4);
        r.end_reason = m.column_text(5);
        r.turns = m.column_int(6);
        r.transcript_path = m.column_text(7);
        r.replay_path = m.column_text(8);
        r.started_at = m.column_text(9);
        r.wall_s = m.column_double(10);
        r.tournament = m.column_optional_text(11);
        r.schedule_key = m.column_optional_text(12);
        position_of.emplace(r.id, out.size());
        out.push_back(std::move(r));
    }
    if (out.empty()) return out;

    // A store of schema version 1, read without migrating, has no stderr tails yet.
    Statement has_tails = store.prepare("SELECT count(*) FROM pragma_table_info('participants') WHERE name = 'stderr_tail'");
    const bool tails = has_tails.step() && has_tails.column_int64(0) > 0;
    Statement p = store.prepare(
        "SELECT p.match_id, b.name, p.seat, p.score, p.rank, p.status, p.detail, p.wall_used_s, p.cpu_used_s,"
        " p.longest_reply_s, p.requests, p.peak_memory_kib, " +
        std::string(tails ? "p.stderr_tail" : "''") +
        " FROM participants p JOIN bots b ON b.id = p.bot_id"
        " WHERE p.match_id IN (SELECT m.id FROM matches m" +
        where + ") ORDER BY p.match_id, p.position");
    bind_where(p, game, tournament);
    while (p.step()) out[position_of.at(p.column_int64(0))].seats.push_back(read_seat(p));

    Statement q = store.prepare(
        "SELECT p.match_id, p.a, p.b, p.score_a FROM pairs p WHERE p.match_id IN (SELECT m.id FROM matches "
        "m" +
        where + ") ORDER BY p.match_id, p.position");
    bind_where(q, game, tournament);
    while (q.step())
        out[position_of.at(q.column_int64(0))].pairs.push_back(
            {q.column_int(1), q.column_int(2), q.column_double(3)});
    return out;
}

std::vector<TournamentInfo> load_tournaments(const rating::Store& store,
                                             const std::vector<std::string>& names) {
    std::vector<TournamentInfo> out;
    Statement exists =
        store.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament'");
    if (!exists.step()) return out;
    Statement st =
        store.prepare("SELECT name, game, identity_json, created_at FROM tournament WHERE name = ?1");
    for (const auto& name : names) {
        st.reset();
        st.bind(1, name);
        if (st.step())
            out.push_back({st.column_text(0), st.column_text(1), st.column_text(2), st.column_text(3)});
    }
    return out;
}

}  // namespace arb::report

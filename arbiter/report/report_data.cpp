#include "arbiter/report/report_data.hpp"

#include <utility>

#include "rating/results_repository.hpp"

namespace arb::report {
namespace {

// The report's view of one stored match: each seat's status as stored, files as recorded.
ReportMatch report_match(rating::StoredMatch& stored) {
    MatchRecord& record = stored.record;
    ReportMatch r;
    r.id = stored.id;
    r.game = std::move(record.game);
    r.config_json = std::move(record.config_json);
    r.seed = record.seed;
    r.rotation = record.rotation;
    r.end_reason = std::move(record.end_reason);
    r.turns = record.turns;
    r.transcript_path = std::move(record.transcript_path);
    r.replay_path = std::move(record.replay_path);
    r.started_at = std::move(record.started_at);
    r.wall_s = record.wall_s;
    r.tournament = std::move(stored.tournament);
    r.schedule_key = std::move(stored.schedule_key);
    r.seats.reserve(record.participants.size());
    for (std::size_t i = 0; i < record.participants.size(); ++i) {
        ParticipantResult& p = record.participants[i];
        ReportSeat s;
        s.bot = std::move(p.bot);
        s.seat = p.seat;
        s.score = p.score;
        s.rank = p.rank;
        s.status = std::move(stored.stored_statuses.at(i));
        s.detail = std::move(p.detail);
        s.wall_used_s = p.usage.wall_used_s;
        s.cpu_used_s = p.usage.cpu_used_s;
        s.longest_reply_s = p.usage.longest_reply_s;
        s.requests = p.usage.requests;
        s.peak_memory_kib = p.usage.peak_memory_kib;
        s.stderr_tail = std::move(p.stderr_tail);
        r.seats.push_back(std::move(s));
    }
    for (const PairResult& pair : record.pairs) r.pairs.push_back({pair.a, pair.b, pair.score_a});
    return r;
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
    rating::MatchFilter filter;
    filter.game = game;
    filter.tournament = tournament;
    std::vector<rating::StoredMatch> stored = store.matches_as_stored(filter);
    std::vector<ReportMatch> out;
    out.reserve(stored.size());
    for (rating::StoredMatch& m : stored) out.push_back(report_match(m));
    return out;
}

std::vector<TournamentInfo> load_tournaments(const rating::Store& store, const std::vector<std::string>& names) {
    return rating::tournament_identities(store, names);
}

}  // namespace arb::report

#include "arbiter/serve/serve_state.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <set>

#include <fmt/format.h>

#include "arbiter/match/match_files.hpp"
#include "arbiter/report/report_data.hpp"
#include "arbiter/serve/file_stamp.hpp"
#include "arbiter/tournament/live_matches.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/run_status.hpp"
#include "rating/sqlite_db.hpp"
#include "rules/registry.hpp"

namespace arb::serve {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string host_name() {
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

// Whether the recorded runner still runs: only a process on this machine can be looked at; one
// recorded on another is taken at its word.
bool runner_alive(const json& t) {
    if (t["runner_pid"].is_null()) return false;
    if (t["runner_host"].get<std::string>() != host_name()) return true;
    const auto pid = static_cast<pid_t>(t["runner_pid"].get<std::int64_t>());
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

json standings(const rating::Store& store, const std::string& tournament) {
    rating::MatchFilter filter;
    filter.tournament = tournament;
    const rating::ResultSet results = store.pair_games(filter);
    json rows = json::array();
    if (results.empty()) return rows;
    rating::EloOptions elo;
    elo.advantage = 0;  // seats are symmetric after rotation, as the report rates them
    for (const auto& r : rating::rate(results, elo).rows)
        rows.push_back({{"rank", r.rank}, {"bot", r.name}, {"elo", r.elo}, {"plus", r.plus}, {"minus", r.minus},
                        {"games", r.games}, {"score", r.score}});
    return rows;
}

json recent_matches(const rating::Store& store, const std::string& game, const std::string& tournament,
                    std::size_t count, int index) {
    std::vector<report::ReportMatch> matches = report::load_report_matches(store, game, tournament);
    json out = json::array();
    const std::size_t from = matches.size() > count ? matches.size() - count : 0;
    for (std::size_t i = matches.size(); i-- > from;) {
        const auto& m = matches[i];
        json seats = json::array();
        for (const auto& s : m.seats)
            seats.push_back({{"bot", s.bot}, {"rank", s.rank}, {"score", s.score}, {"status", s.status}});
        out.push_back({{"key", m.schedule_key.value_or("#" + std::to_string(m.id))},
                       {"map", map_file_of(game, m.config_json)},
                       {"started_at", m.started_at},
                       {"wall_s", m.wall_s},
                       {"seats", seats},
                       {"href", fmt::format("/view/{}/{}", index, m.id)}});
    }
    return out;
}

json ladders(const rating::Store& store) {
    std::map<std::string, json> by_game;
    std::map<std::int64_t, rating::Snapshot> snapshots;
    const auto runs = rating::ladder_runs(store);
    if (runs.empty()) return json::array();
    for (auto& s : store.snapshots()) snapshots.emplace(s.id, std::move(s));
    for (const auto& run : runs) {
        json& g = by_game[run.game];
        if (g.is_null()) g = {{"game", run.game}, {"runs", json::array()}, {"versions", json::array()}};
        json row = {{"bot", run.bot},          {"previous", run.previous ? json(*run.previous) : json(nullptr)},
                    {"verdict", run.verdict},  {"los", run.los},
                    {"matches", run.matches},  {"finished_at", run.finished_at}};
        if (const auto s = snapshots.find(run.snapshot_id); s != snapshots.end()) {
            for (const auto& r : s->second.rows)
                if (r.bot == run.bot) row.update({{"elo", r.elo}, {"plus", r.plus}, {"minus", r.minus}});
            g["versions"] = json::array();  // the latest run's snapshot rates every version
            for (const auto& r : s->second.rows)
                g["versions"].push_back(
                    {{"bot", r.bot}, {"elo", r.elo}, {"plus", r.plus}, {"minus", r.minus}, {"games", r.games}});
        }
        g["runs"].push_back(std::move(row));
    }
    json out = json::array();
    for (auto& [game, g] : by_game) out.push_back(std::move(g));
    return out;
}

// The file's stamp and its -wal's: every commit changes one of them.
std::string file_fingerprint(const std::string& path) { return file_stamp(path) + ";" + file_stamp(path + "-wal"); }

}  // namespace

std::optional<std::int64_t> parse_utc(const std::string& text) {
    std::tm tm{};
    const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (!end || *end) return std::nullopt;
    return static_cast<std::int64_t>(timegm(&tm));
}

SourceState::SourceState(int index, std::string db_path, StateOptions options)
    : index_(index), path_(std::move(db_path)), options_(options) {
    state_ = {{"db", path_}, {"index", index_}, {"error", "not read yet"}};
}

void SourceState::read_stored(const rating::Store& store) {
    json tournaments = json::array();
    folders_.clear();
    for (const auto& t : rating::tournament_statuses(store)) {
        // Its matches' folders: where its latest result's files are, else where a run puts them.
        fs::path folder;
        if (t.last_transcript && !t.last_transcript->empty())
            folder = fs::path(*t.last_transcript).parent_path().parent_path();
        else if (rating::is_file_database(path_))
            folder = default_files_root(path_) / t.name;
        folders_.push_back(folder);
        tournaments.push_back({{"name", t.name},
                               {"game", t.game},
                               {"created_at", t.created_at},
                               {"scheduled", t.scheduled},
                               {"stored", t.stored},
                               {"stored_this_run", t.stored_this_run},
                               {"runner_pid", t.runner.pid ? json(*t.runner.pid) : json(nullptr)},
                               {"runner_host", t.runner.host.value_or("")},
                               {"runner_since", t.runner.since.value_or("")},
                               {"first_started_at", t.first_started_at.value_or("")},
                               {"last_stored_at", t.last_stored_at.value_or("")},
                               {"standings", standings(store, t.name)},
                               {"recent", recent_matches(store, t.game, t.name, options_.recent, index_)}});
    }
    stored_ = {{"tournaments", std::move(tournaments)}, {"ladders", ladders(store)}};
}

rating::Store SourceState::open_store() const {
    return rating::Store::open(path_, rating::OpenMode::read_only_beside_writers);
}

void SourceState::refresh() {
    try {
        const std::string now = file_fingerprint(path_);
        if (now != fingerprint_ || stored_.is_null()) {
            fingerprint_.clear();
            const rating::Store store = open_store();
            read_stored(store);
            fingerprint_ = now;
        }
    } catch (const UserError& e) {
        // A file not there yet, or not yet a store: read again next time.
        state_ = {{"db", path_}, {"index", index_}, {"error", e.what()}};
        return;
    } catch (const std::exception& e) {
        // A file caught half made (its schema being written) reads as an error for one look.
        state_ = {{"db", path_}, {"index", index_}, {"error", e.what()}};
        return;
    }
    state_ = stored_;
    state_["db"] = path_;
    state_["index"] = index_;
    const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
    std::set<std::string> following;
    std::set<std::pair<std::size_t, std::string>> playing;
    live_paths_.clear();
    for (std::size_t i = 0; i < state_["tournaments"].size(); ++i) {
        json& t = state_["tournaments"][i];
        const bool running = runner_alive(t);
        const int scheduled = t["scheduled"], stored = t["stored"];
        t["status"] = running ? "running" : scheduled > 0 && stored >= scheduled ? "ended" : "interrupted";
        if (running) {
            const auto since = parse_utc(t["runner_since"].get<std::string>());
            const int done = t["stored_this_run"];
            if (since && done > 0 && now > *since && scheduled > stored) {
                const double rate = done / static_cast<double>(now - *since);
                t["rate"] = rate;
                t["eta_s"] = (scheduled - stored) / rate;
            }
        }
        t["running"] = json::array();
        if (!running) continue;
        if (i >= folders_.size() || folders_[i].empty()) continue;
        const fs::path live = tournament::live_folder(folders_[i]);
        for (const auto& f : tournament::read_live_files(live)) {
            auto& follower = followers_[f.transcript.string()];
            if (!follower) follower = std::make_unique<TranscriptFollower>(f.transcript);
            follower->look();
            following.insert(f.transcript.string());
            live_paths_[{i, f.name}] = f.transcript.string();
            const int step = shown_step(follower->step());
            auto& board = boards_[{i, f.name}];
            if (!board) {
                try {
                    board = std::make_unique<LiveBoard>(find_game(t["game"].get<std::string>()), f);
                } catch (const UserError&) {  // a game this build does not know: no board
                }
            }
            if (board) board->look(follower->step(), options_.delay_steps);
            playing.insert({i, f.name});
            json seats = json::array();
            for (const auto& [label, s] : follower->seats())
                seats.push_back({{"seat", label}, {"requests", s.requests}, {"charged_ms", s.charged_ms}});
            t["running"].push_back({{"name", f.name},
                                    {"bots", f.bots},
                                    {"seed", std::to_string(f.seed)},  // past 2^53: text for the page
                                    {"rotation", f.rotation},
                                    {"options", json::parse(f.options_json, nullptr, false)},
                                    {"started_at", f.started_at},
                                    {"step", step},
                                    {"elapsed_s", follower->elapsed_s()},
                                    {"seats", seats},
                                    {"href", fmt::format("/live/{}/{}/{}", index_, i, f.name)}});
        }
    }
    std::erase_if(followers_, [&](const auto& f) { return !following.count(f.first); });
    std::erase_if(boards_, [&](const auto& b) { return !playing.count(b.first); });
}

int SourceState::shown_step(int step) const { return step < 0 ? -1 : std::max(0, step - options_.delay_steps); }

std::optional<json> SourceState::live_match(std::size_t tournament, const std::string& name) {
    if (!state_.contains("tournaments") || tournament >= state_["tournaments"].size()) return std::nullopt;
    const json& t = state_["tournaments"][tournament];
    for (const json& r : t["running"]) {
        if (r["name"] != name) continue;
        const auto path = live_paths_.find({tournament, name});
        auto follower = path == live_paths_.end() ? followers_.end() : followers_.find(path->second);
        json out = r;
        out["tournament"] = t["name"];
        const auto board = boards_.find({tournament, name});
        const auto board_step = board == boards_.end() ? std::nullopt : board->second->step_shown(r["step"].get<int>());
        out["frames"] = board_step.has_value();
        out["board_step"] = board_step ? json(*board_step) : json(nullptr);  // the step the board shows
        out["lines"] = json::array();
        if (follower == followers_.end()) return out;
        // Lines of the steps shown only: the delay holds back what the bots see as they play.
        const int shown = r["step"];
        std::vector<const TranscriptLine*> kept;
        for (const auto& line : follower->second->lines())
            if (options_.delay_steps == 0 || (shown >= 0 && line.step <= shown)) kept.push_back(&line);
        const std::size_t from = kept.size() > 200 ? kept.size() - 200 : 0;
        for (std::size_t i = from; i < kept.size(); ++i) out["lines"].push_back(kept[i]->text);
        return out;
    }
    // Not running: finished (its viewer), or not a match of this tournament.
    std::string key = t["name"].get<std::string>() + "/" + name;
    std::replace(key.begin() + static_cast<std::ptrdiff_t>(t["name"].get<std::string>().size()), key.end(), '-', '/');
    try {
        if (const auto id = open_store().match_id_for_schedule_key(key))
            return json{{"name", name}, {"tournament", t["name"]}, {"finished", fmt::format("/view/{}/{}", index_, *id)}};
    } catch (const UserError&) {
    } catch (const rating::SqliteError&) {
    }
    return std::nullopt;
}

std::optional<std::string> SourceState::live_viewer(std::size_t tournament, const std::string& name) {
    const auto board = boards_.find({tournament, name});
    const auto path = live_paths_.find({tournament, name});
    const auto follower = path == live_paths_.end() ? followers_.end() : followers_.find(path->second);
    if (board == boards_.end() || follower == followers_.end()) return std::nullopt;
    const std::string title =
        fmt::format("{} {}", state_["tournaments"][tournament]["name"].get<std::string>(), name);
    return board->second->page(shown_step(follower->second->step()), title);
}

std::optional<fs::path> SourceState::match_folder(std::int64_t id) {
    std::optional<rating::StoredMatch> m;
    try {
        m = open_store().match(id);
    } catch (const std::exception&) {
        return std::nullopt;  // a status this build does not know: no viewer for it here
    }
    if (!m || m->record.transcript_path.empty()) return std::nullopt;
    std::vector<report::ReportMatch> one(1);
    one[0].transcript_path = m->record.transcript_path;
    if (rating::is_file_database(path_)) report::relocate_match_files(one, default_files_root(path_));
    return fs::path(one[0].transcript_path).parent_path();
}

}  // namespace arb::serve

#include "arbiter/tournament/match_jobs.hpp"

#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::tournament {
namespace {

using nlohmann::json;

constexpr const char* kJobFormat = "arbiter-match-job";
constexpr const char* kResultFormat = "arbiter-match-result";
constexpr int kFormatVersion = 1;

json match_to_json(const ScheduledMatch& m) {
    json j = {{"key", m.key},   {"round", m.round}, {"group", m.group},        {"seating", m.seating},
              {"bots", m.bots}, {"seed", m.seed},   {"deal_set", m.deal_set}};
    // The pool's map as planned: ingest compares it with the stored schedule's (absent: none).
    if (!m.map.empty()) j["map"] = m.map;
    return j;
}

ScheduledMatch match_from_json(const json& j) {
    ScheduledMatch m;
    m.key = j.at("key").get<std::string>();
    m.round = json_integer<int>(j.at("round"));
    m.group = json_integer<int>(j.at("group"));
    m.seating = json_integer<int>(j.at("seating"));
    m.bots = j.at("bots").get<std::vector<std::string>>();
    m.seed = json_integer<std::uint64_t>(j.at("seed"));
    m.deal_set = json_integer<std::uint64_t>(j.at("deal_set"));
    if (j.contains("map")) m.map = j.at("map").get<std::string>();
    return m;
}

// A bot as its spec text, with the working folder made absolute: a job may run in another folder
// (or on another machine sharing the file system) than the one it was planned in.
json bot_to_json(const BotSpec& b) {
    BotSpec absolute = b;
    if (b.url.empty())
        absolute.dir = b.dir.empty() ? std::filesystem::current_path() : std::filesystem::absolute(b.dir).lexically_normal();
    return to_spec_string(absolute);
}

BotSpec bot_from_json(const json& j) { return parse_bot_spec(j.get<std::string>()); }

json limits_to_json(const Limits& l) {
    json j = {{"memory_mib", l.memory_mib},         {"max_processes", l.max_processes},
              {"core_dumps", l.core_dumps},         {"max_line_bytes", l.max_line_bytes},
              {"stderr_cap_bytes", l.stderr_cap_bytes}, {"sandbox", to_string(l.sandbox)},
              {"seat_users", l.seat_users}, {"disk_mib", l.disk_mib}, {"folder_mib", l.folder_mib}, {"pass_env", l.pass_env},
              {"allow_syscalls", l.allow_syscalls}};
    j["cpu_seconds"] = l.cpu_seconds ? json(*l.cpu_seconds) : json(nullptr);
    return j;
}

Limits limits_from_json(const json& j) {
    Limits l;
    l.memory_mib = json_integer<std::int64_t>(j.at("memory_mib"));
    if (!j.at("cpu_seconds").is_null()) l.cpu_seconds = json_integer<int>(j.at("cpu_seconds"));
    l.max_processes = json_integer<int>(j.at("max_processes"));
    l.core_dumps = j.at("core_dumps").get<bool>();
    l.max_line_bytes = json_integer<std::size_t>(j.at("max_line_bytes"));
    l.stderr_cap_bytes = json_integer<std::size_t>(j.at("stderr_cap_bytes"));
    l.sandbox = sandbox_mode_from_string(j.at("sandbox").get<std::string>());
    l.seat_users = j.value("seat_users", false);  // absent in jobs planned before the key existed
    l.disk_mib = j.value("disk_mib", std::int64_t{256});
    l.folder_mib = j.value("folder_mib", std::int64_t{1024});
    l.pass_env = j.value("pass_env", std::vector<std::string>{});
    l.allow_syscalls = j.value("allow_syscalls", std::vector<std::string>{});
    return l;
}

json load_to_json(const LoadNote& l) {
    return {{"started_at", l.started_at}, {"concurrent_matches", l.concurrent_matches}, {"jobs", l.jobs},
            {"cores", l.cores},           {"load_per_core", l.load_per_core}};
}

LoadNote load_from_json(const json& j) {
    return LoadNote{j.at("started_at").get<std::string>(), json_integer<int>(j.at("concurrent_matches")),
                    json_integer<int>(j.at("jobs")), json_integer<int>(j.at("cores")), j.at("load_per_core").get<double>()};
}

void check_format(const json& j, const char* format, const std::string& where) {
    if (!j.is_object() || !j.contains("format") || j["format"] != format)
        throw UserError(fmt::format("{}: not an arbiter {} file (no \"format\": \"{}\")", where,
                                    format == kJobFormat ? "match job" : "match result", format));
    // Read without .value(), which throws a JSON type error for a version that is no number.
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer() || *version != kFormatVersion)
        throw UserError(fmt::format("{}: {} version {} is not the version {} this arbiter reads", where, format,
                                    version == j.end() ? "(none)" : version->dump(), kFormatVersion));
}

}  // namespace

json job_to_json(const MatchJob& job, const GameDescriptor& game) {
    const MatchRequest& r = job.job.request;
    json bots = json::array();
    for (const auto& b : r.bots) bots.push_back(bot_to_json(b));
    // File options (maps, fields) are made absolute for the same reason as the bots' folders.
    std::map<std::string, std::string> options = r.options.values();
    for (const auto& spec : game.options) {
        auto it = options.find(spec.key);
        if (spec.kind == OptionKind::path && it != options.end() && !it->second.empty())
            it->second = std::filesystem::absolute(it->second).lexically_normal().string();
    }
    return {{"format", kJobFormat},
            {"version", kFormatVersion},
            {"tournament", job.tournament},
            {"match", match_to_json(job.job.match)},
            {"game", r.game},
            {"options", options},
            {"seed", r.seed},
            {"deal_set", r.deal_set ? json(*r.deal_set) : json(nullptr)},
            {"rotation", r.rotation},
            {"bots", bots},
            {"limits", limits_to_json(r.limits)},
            {"freeze_idle", r.freeze_idle}};
}

MatchJob job_from_json(const json& j, const std::string& where, const GameFinder& find_game) {
    check_format(j, kJobFormat, where);
    try {
        MatchJob job;
        job.tournament = j.at("tournament").get<std::string>();
        job.job.match = match_from_json(j.at("match"));
        MatchRequest& r = job.job.request;
        r.game = j.at("game").get<std::string>();
        const GameDescriptor& game = find_game(r.game);
        r.options = GameOptions(game.options, j.at("options").get<std::map<std::string, std::string>>());
        r.seed = json_integer<std::uint64_t>(j.at("seed"));
        if (!j.at("deal_set").is_null()) r.deal_set = json_integer<std::uint64_t>(j.at("deal_set"));
        r.rotation = json_integer<int>(j.at("rotation"));
        for (const auto& b : j.at("bots")) r.bots.push_back(bot_from_json(b));
        r.limits = limits_from_json(j.at("limits"));
        r.freeze_idle = j.at("freeze_idle").get<bool>();
        return job;
    } catch (const json::exception& e) {
        throw UserError(fmt::format("{}: bad match job: {}", where, e.what()));
    } catch (const UserError& e) {
        throw UserError(fmt::format("{}: {}", where, e.what()));
    }
}

json result_to_json(const JobResult& result) {
    return {{"format", kResultFormat},
            {"version", kFormatVersion},
            {"tournament", result.tournament},
            {"match", match_to_json(result.match)},
            {"record", result.record},
            {"load", load_to_json(result.load)}};
}

JobResult result_from_json(const json& j, const std::string& where) {
    check_format(j, kResultFormat, where);
    try {
        JobResult r;
        r.tournament = j.at("tournament").get<std::string>();
        r.match = match_from_json(j.at("match"));
        r.record = j.at("record").get<MatchRecord>();
        r.load = load_from_json(j.at("load"));
        return r;
    } catch (const json::exception& e) {
        throw UserError(fmt::format("{}: bad match result: {}", where, e.what()));
    } catch (const std::invalid_argument& e) {  // an unknown seat status
        throw UserError(fmt::format("{}: bad match result: {}", where, e.what()));
    }
}

json read_json_file(const std::filesystem::path& file) {
    // A job or result file is a few KiB; a record with long details stays far below this.
    return parse_json_text(read_text_file(file, std::size_t{16} << 20), file.string());
}

void write_json_file(const std::filesystem::path& file, const json& j) {
    const std::filesystem::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << j.dump(2) << '\n';
        if (!out.flush()) throw UserError(fmt::format("{}: cannot write", tmp.string()));
    }
    std::filesystem::rename(tmp, file);
}

std::string job_file_name(const ScheduledMatch& m) {
    return fmt::format("job-r{}-g{}-s{}.json", m.round, m.group, m.seating);
}

JobResult play_job(const MatchJob& job, const MatchFunction& play) {
    JobResult result;
    result.tournament = job.tournament;
    result.match = job.job.match;
    result.load = LoadNote{utc_timestamp_now(), 1, 1, core_count(), machine_load_now()};
    result.record = play(job.job.request);
    return result;
}

ResultIngester::~ResultIngester() {
    try {
        if (!claimed_.empty()) store_.release(claimed_);
    } catch (...) {
    }
}

IngestStatus ResultIngester::ingest(const JobResult& result) {
    const ScheduledMatch& m = result.match;
    auto never_planned = [&](const std::string& why) {
        return UserError(fmt::format("result for match '{}' of tournament '{}': {} never planned it ({})", m.key,
                                     result.tournament, store_.store().path(), why));
    };
    // Each result is looked up by its key, so an ingest of a large tournament holds neither its
    // schedule nor its stored records in memory.
    const std::optional<ScheduledMatch> planned = store_.scheduled(result.tournament, m.key);
    if (!planned)
        throw never_planned(store_.round_sizes(result.tournament).empty() ? "no such tournament"
                                                                          : "no such match in its schedule");
    if (!(*planned == m)) throw never_planned("the stored schedule has other seats or seeds for it");
    if (claimed_ != result.tournament) {
        // The run lock of the tournament: an in-process run of it must not store meanwhile.
        if (!claimed_.empty()) store_.release(claimed_);
        claimed_.clear();
        store_.claim(result.tournament);
        claimed_ = result.tournament;
    }
    if (store_.has_result(m.key)) return IngestStatus::already_stored;
    store_.store_result(result.tournament, m, result.record, result.load);
    return IngestStatus::stored;
}

}  // namespace arb::tournament

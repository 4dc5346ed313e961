// arbiter matches | show: the matches a database holds, and one match in full with its files.
#include <algorithm>
#include <cctype>
#include <string_view>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/result_table.hpp"
#include "arbiter/cli/step_printer.hpp"
#include "arbiter/match/match_locator.hpp"
#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"
#include "rating/store.hpp"

namespace arb::cli {
namespace {

namespace fs = std::filesystem;
using rating::StoredMatch;

// A match's name: its schedule key, or "#<id>" for a match stored without one (imported).
std::string key_of(const StoredMatch& m) { return m.schedule_key ? *m.schedule_key : fmt::format("#{}", m.id); }

// The match's folder: where its transcript (else its replay) is.
std::string folder_of(const MatchRecord& r) {
    const std::string& any = !r.transcript_path.empty() ? r.transcript_path : r.replay_path;
    return any.empty() ? "" : fs::path(any).parent_path().string();
}

std::string ordinal(int n) {
    const int tens = n % 100, ones = n % 10;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

// "alice 1st 312, bob 2nd 180 timeout (time limit)", in seat order.
std::string bots_text(const MatchRecord& r) {
    std::string out;
    for (const auto& p : r.participants) {
        out += fmt::format("{}{} {} {:g}", out.empty() ? "" : ", ", p.bot, ordinal(p.rank), p.score);
        if (p.status != SeatStatus::ok)
            out += fmt::format(" {}{}", to_string(p.status), p.limit.empty() ? "" : " (" + p.limit + " limit)");
    }
    return out;
}

// Keys in schedule order: runs of digits compare as numbers (r2 before r10), then by id.
bool schedule_order(const StoredMatch& a, const StoredMatch& b) {
    const std::string x = key_of(a), y = key_of(b);
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        if (std::isdigit(static_cast<unsigned char>(x[i])) && std::isdigit(static_cast<unsigned char>(y[j]))) {
            const std::size_t i0 = i, j0 = j;
            while (i < x.size() && std::isdigit(static_cast<unsigned char>(x[i]))) ++i;
            while (j < y.size() && std::isdigit(static_cast<unsigned char>(y[j]))) ++j;
            const std::string_view dx = std::string_view(x).substr(i0, i - i0), dy = std::string_view(y).substr(j0, j - j0);
            if (dx.size() != dy.size()) return dx.size() < dy.size();  // no leading zeros in keys
            if (dx != dy) return dx < dy;
            continue;
        }
        if (x[i] != y[j]) return x[i] < y[j];
        ++i, ++j;
    }
    if ((i < x.size()) != (j < y.size())) return j < y.size();
    return a.id < b.id;
}

void check_tournament(const rating::Store& store, const std::string& db, const std::string& name) {
    const auto names = store.tournaments();
    if (std::find(names.begin(), names.end(), name) == names.end())
        throw UserError(fmt::format("no tournament '{}' in {}{}", name, db, did_you_mean(name, names)));
}

struct MatchesArgs {
    std::string db;
    std::string tournament;
    std::string format = "table";
    bool json = false;  // --json, the earlier spelling of --format json
};

void run_matches(const MatchesArgs& a) {
    const auto store = rating::Store::open(a.db, rating::OpenMode::read_only);
    rating::MatchFilter filter;
    if (!a.tournament.empty()) {
        check_tournament(store, a.db, a.tournament);
        filter.tournament = a.tournament;
    }
    auto matches = store.matches(filter);
    std::sort(matches.begin(), matches.end(), schedule_order);
    if (a.json || a.format == "json") {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const auto& m : matches) {
            nlohmann::ordered_json row;
            row["key"] = key_of(m);
            row["id"] = m.id;
            row["tournament"] = m.tournament ? nlohmann::ordered_json(*m.tournament) : nullptr;
            row["game"] = m.record.game;
            const std::string map = map_of(m.record);
            row["map"] = map.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(map);
            row["end_reason"] = m.record.end_reason;
            row["participants"] = nlohmann::json(m.record.participants);
            row["folder"] = folder_of(m.record);
            out.push_back(std::move(row));
        }
        std::cout << out.dump(2) << "\n";
        return;
    }
    for (const auto& m : matches) {
        const std::string folder = folder_of(m.record);
        const std::string map = map_of(m.record);
        std::cout << fmt::format("{}  {}{}  [{}]{}\n", key_of(m), map.empty() ? "" : "(" + map + ") ", bots_text(m.record),
                                 m.record.end_reason, folder.empty() ? "" : "  " + folder);
    }
    std::cout << fmt::format("{} match(es){}\n", matches.size(),
                             matches.empty() ? "" : "; arbiter show --db " + a.db + " KEY prints one");
}

struct ShowArgs {
    std::string db;
    std::string key;
    std::string tournament;
    std::string format = "text";
    bool json = false;
    std::optional<int> seat, step;
};

// The schedule key KEY names: "<tournament>/r0/g1/s2" as stored; "r0/g1/s2" or "r0-g1-s2" in the
// tournament --tournament names or the only one stored; "#<id>" for a match without a key.
StoredMatch find_match(const rating::Store& store, const ShowArgs& a) {
    static const std::regex id_form(R"(#(\d{1,18}))");
    static const std::regex short_form(R"(r(\d+)[/-]g(\d+)[/-]s(\d+))");
    std::smatch m;
    if (std::regex_match(a.key, m, id_form)) {
        if (auto found = store.match(std::stoll(m[1].str()))) return *found;
        throw UserError(fmt::format("no match {} in {}", a.key, a.db));
    }
    std::string key = a.key;
    if (std::regex_match(a.key, m, short_form)) {
        std::string tournament = a.tournament;
        if (tournament.empty()) {
            const auto names = store.tournaments();
            if (names.size() != 1)
                throw UserError(fmt::format("{} holds {} tournaments: name one with --tournament, or give the whole "
                                            "key (<tournament>/{})",
                                            a.db, names.size(), a.key));
            tournament = names.front();
        }
        key = fmt::format("{}/r{}/g{}/s{}", tournament, m[1].str(), m[2].str(), m[3].str());
    }
    if (auto id = store.match_id_for_schedule_key(key))
        if (auto found = store.match(*id)) return *found;
    std::vector<std::string> keys;
    for (const auto& stored : store.matches()) keys.push_back(key_of(stored));
    throw UserError(fmt::format("no match '{}' in {}{}", key, a.db, did_you_mean(key, keys)));
}

// The files of a match's folder: record, replay, transcript, then the logs and anything else.
nlohmann::ordered_json files_of(const MatchRecord& r, const std::string& record_file) {
    nlohmann::ordered_json files;
    const std::string folder = folder_of(r);
    files["folder"] = folder;
    files["record"] = !record_file.empty() ? record_file : folder.empty() ? "" : (fs::path(folder) / "record.json").string();
    files["replay"] = r.replay_path;
    files["transcript"] = r.transcript_path;
    std::vector<std::string> logs, others;
    std::error_code ec;
    if (!folder.empty() && fs::is_directory(folder, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(folder, ec)) {
            if (!e.is_regular_file(ec)) continue;
            const std::string path = e.path().string();
            if (path == files["record"] || path == r.replay_path || path == r.transcript_path) continue;
            (e.path().parent_path().filename() == "logs" ? logs : others).push_back(path);
        }
    }
    std::sort(logs.begin(), logs.end());
    std::sort(others.begin(), others.end());
    files["logs"] = logs;
    files["other"] = others;
    return files;
}

// The match's record, files and result, in words or JSON.
void print_match(const ShowArgs& a, const MatchRecord& record, const std::string& record_file,
                 const std::string& heading, nlohmann::ordered_json id) {
    const auto files = files_of(record, record_file);
    if (a.json) {
        nlohmann::ordered_json out = std::move(id);
        out["record"] = nlohmann::json(record);
        out["files"] = files;
        std::cout << out.dump(2) << "\n";
        return;
    }
    std::cout << heading;
    print_match_result(std::cout, record);
    print_stderr_tails(std::cout, record);
    if (files["folder"].get<std::string>().empty()) {
        std::cout << "files: none kept\n";
        return;
    }
    std::cout << "files:\n";
    auto line = [](const char* what, const std::string& path) {
        std::error_code ec;
        if (!path.empty()) std::cout << fmt::format("  {:<11} {}{}\n", what, path, fs::exists(path, ec) ? "" : " (missing)");
    };
    for (const char* what : {"folder", "record", "replay", "transcript"}) line(what, files[what].get<std::string>());
    for (const auto& p : files["logs"]) line("log", p.get<std::string>());
    for (const auto& p : files["other"]) line("other", p.get<std::string>());
}

void run_show(const ShowArgs& a) {
    const StepQuery query{a.seat, a.step, a.json};
    const bool steps = a.seat || a.step;
    if (a.db.empty()) {  // a folder or a record
        std::error_code ec;
        if (!fs::exists(a.key, ec))
            throw UserError(a.key + ": no such file or folder (a tournament's match key needs --db DATABASE)");
        const fs::path record_path = find_record(a.key);
        const MatchRecord record = read_record_file(record_path);
        if (steps) return print_steps(std::cout, record, record_path, query);
        return print_match(a, record, fs::absolute(record_path).string(), fmt::format("match {}, started {}, load {:.2f} per core\n", record_path.string(),
                                                  record.started_at, record.machine_load),
                           {{"record_file", record_path.string()}});
    }
    const auto store = rating::Store::open(a.db, rating::OpenMode::read_only);
    if (!a.tournament.empty()) check_tournament(store, a.db, a.tournament);
    const StoredMatch m = find_match(store, a);
    if (steps) {
        const std::string folder = folder_of(m.record);
        return print_steps(std::cout, m.record, fs::path(folder.empty() ? "." : folder) / "record.json", query);
    }
    nlohmann::ordered_json id;
    id["key"] = key_of(m);
    id["id"] = m.id;
    id["tournament"] = m.tournament ? nlohmann::ordered_json(*m.tournament) : nullptr;
    print_match(a, m.record, "",
                fmt::format("match {} (id {}{}), started {}, load {:.2f} per core\n", key_of(m), m.id,
                            m.tournament ? ", tournament " + *m.tournament : "", m.record.started_at, m.record.machine_load),
                std::move(id));
}

}  // namespace

void add_match_commands(CLI::App& app) {
    {
        auto a = std::make_shared<MatchesArgs>();
        auto* sub = app.add_subcommand("matches", "List the stored matches: key, bots with rank and score, end, folder");
        sub->add_option("--db", a->db, "Results store (SQLite file written by arbiter)")->required();
        sub->add_option("--tournament", a->tournament, "Only this tournament's matches");
        sub->add_option("--format", a->format, "table (one line per match) or json (key, map, participants, ...)")
            ->check(CLI::IsMember({"table", "json"}));
        sub->add_flag("--json", a->json)->group("");  // the earlier spelling of --format json
        sub->footer("Example:\n  arbiter matches --db results.sqlite --tournament spring --format json");
        sub->callback([a] { run_matches(*a); });
    }
    {
        auto a = std::make_shared<ShowArgs>();
        auto* sub = app.add_subcommand(
            "show", "Print one match in full (record, failures, stderr tails, files), or what its bots were sent, replied "
                    "and printed at a step (--seat, --step)");
        sub->add_option("match", a->key,
                        "A folder `arbiter play` wrote, a match folder or a record; with --db, the match's schedule key "
                        "<tournament>/r0/g1/s2 (r0/g1/s2 or r0-g1-s2 with --tournament or when the store holds one "
                        "tournament; #ID for a match stored without a key)")
            ->required();
        sub->add_option("--db", a->db, "Results store (SQLite file written by arbiter): MATCH is a key in it");
        sub->add_option("--tournament", a->tournament, "The tournament a short key belongs to");
        sub->add_option("--seat", a->seat, "Only this seat (the record's seat, 0-based): what its bot was sent, replied and printed")
            ->check(CLI::NonNegativeNumber);
        sub->add_option("--step", a->step,
                        "Only this step, numbered as the viewer numbers its frames (#frame=K): every bot's exchange there")
            ->check(CLI::NonNegativeNumber);
        // --format is the output flag of every command; --json, the earlier spelling, still works.
        sub->add_option("--format", a->format, "text, or json: the record and the paths of its files (with --seat/--step the exchanges)")
            ->check(CLI::IsMember({"text", "json"}));
        sub->add_flag("--json", a->json, "Print JSON")->group("");
        sub->footer("Examples:\n  arbiter show arbiter-out/GAME-seed1-20261128-170145 --seat 0 --step 12\n"
                    "  arbiter show --db results.sqlite spring/r0/g1/s2");
        sub->callback([a] {
            if (a->format == "json") a->json = true;
            run_show(*a);
        });
    }
}

}  // namespace arb::cli

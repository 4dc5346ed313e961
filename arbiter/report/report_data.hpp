#pragma once
// What the HTML report reads from the results repository, as the report shows it: a seat status
// this build does not know (a newer arbiter's) is shown as stored instead of failing the whole
// report.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "rating/results_repository.hpp"

namespace arb::report {

struct ReportSeat {
    std::string bot;
    int seat = 0;
    double score = 0;
    int rank = 0;
    std::string status;  // as stored: "ok", "timeout", ... or anything a newer arbiter writes
    std::string detail;
    double wall_used_s = 0;
    double cpu_used_s = 0;
    double longest_reply_s = 0;
    std::int64_t requests = 0;
    std::int64_t peak_memory_kib = 0;
    std::string stderr_tail;  // the last lines the bot wrote to stderr ("" when none or not stored)
};

struct ReportPair {
    int a = 0;  // positions in ReportMatch::seats
    int b = 0;
    double score_a = 0.5;
};

struct ReportMatch {
    std::int64_t id = 0;
    std::string game;
    std::string config_json;
    std::string map;  // the map (or field) file's name, from ReportOptions::map_name; "" = none
    std::uint64_t seed = 0;
    int rotation = 0;
    std::string end_reason;
    int turns = 0;
    std::string transcript_path;
    std::string replay_path;
    std::string started_at;
    double wall_s = 0;
    std::optional<std::string> tournament;
    std::optional<std::string> schedule_key;
    std::vector<ReportSeat> seats;
    std::vector<ReportPair> pairs;
};

// A tournament's stored identity (the settings it was created with, as JSON text).
using TournamentInfo = rating::TournamentIdentity;

// The matches of one game (and tournament, when given), in id order, with seats and pairs.
// Points match file paths that no longer exist at `files_root` when the file is there under
// the same folders below a "<files_root name>/" component of the stored path (a moved database
// folder); other paths stay as stored.
void relocate_match_files(std::vector<ReportMatch>& matches, const std::filesystem::path& files_root);

std::vector<ReportMatch> load_report_matches(const rating::Store& store, const std::string& game,
                                             const std::optional<std::string>& tournament);

// The stored identities of the named tournaments that have one (a database without the
// tournament tables, or a tournament name from imported records, yields nothing), by name.
std::vector<TournamentInfo> load_tournaments(const rating::Store& store,
                                             const std::vector<std::string>& names);

}  // namespace arb::report

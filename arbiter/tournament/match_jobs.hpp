#pragma once
// A tournament handed out as independent match jobs: each job file holds everything one match
// needs (game, options, seeds, bots in seat order, limits) plus the tournament and schedule key
// it belongs to; each result file holds the match record and the load it ran under. Results go
// back into the store through TournamentStore::store_result, the path an in-process run uses.
#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "arbiter/tournament/worker_pool.hpp"

namespace arb::tournament {

struct MatchJob {
    std::string tournament;
    Job job;  // request without transcript or log paths
};

struct JobResult {
    std::string tournament;
    ScheduledMatch match;
    MatchRecord record;
    LoadNote load;
};

// Bots' folders and file options are written as absolute paths.
nlohmann::json job_to_json(const MatchJob& job, const GameDescriptor& game);
// `where` names the source in errors. UserError on anything missing or mistyped, or an
// option the game does not know. `find_game` gives the descriptor for the job's game.
using GameFinder = std::function<const GameDescriptor&(const std::string&)>;
MatchJob job_from_json(const nlohmann::json& j, const std::string& where, const GameFinder& find_game);
nlohmann::json result_to_json(const JobResult& result);
JobResult result_from_json(const nlohmann::json& j, const std::string& where);

// Reads a JSON file (UserError naming the file when it cannot be read or parsed).
nlohmann::json read_json_file(const std::filesystem::path& file);
// Writes through a temporary file and a rename, so a reader never sees half a file.
void write_json_file(const std::filesystem::path& file, const nlohmann::json& j);

// "job-r<round>-g<group>-s<seating>.json"
std::string job_file_name(const ScheduledMatch& match);

// Plays a job on this machine: the load note says one match ran alone (jobs = 1).
JobResult play_job(const MatchJob& job, const MatchFunction& play);

enum class IngestStatus { stored, already_stored };

// Stores results one by one, reading each tournament's schedule and stored keys once.
class ResultIngester {
public:
    explicit ResultIngester(TournamentStore& store) : store_(store) {}
    ~ResultIngester();
    ResultIngester(const ResultIngester&) = delete;
    ResultIngester& operator=(const ResultIngester&) = delete;
    // UserError when the store never planned that match (no such tournament, no such schedule
    // key, or other seats or seeds than the stored schedule), or when the tournament is being
    // run by another process.
    IngestStatus ingest(const JobResult& result);

private:
    TournamentStore& store_;
    std::string claimed_;  // the tournament whose run lock is held
};

}  // namespace arb::tournament

#pragma once
// What a live page reads of a results file that another process may be writing: each
// tournament's progress and runner, and the ladder's runs.
// Every function only reads (the store may be opened read-only) and a file without the
// tournament's or the ladder's tables yields nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rating/results_repository.hpp"
#include "rating/store.hpp"

namespace arb::rating {

struct TournamentStatusRow {
    std::string name;
    std::string game;
    std::string created_at;
    int scheduled = 0;               // rows in its stored schedule
    int stored = 0;                  // results stored under it
    int stored_this_run = 0;         // of those, stored since the recorded runner started
    TournamentRunnerRow runner;      // the process recorded as running it, if any
    std::optional<std::string> first_started_at;  // of its stored results
    std::optional<std::string> last_stored_at;
    std::optional<std::string> last_transcript;   // of its latest stored result (where its files are)
};

std::vector<TournamentStatusRow> tournament_statuses(const Store& store);

struct LadderRunView {
    std::string game;
    std::string bot;
    std::optional<std::string> previous;
    std::string finished_at;
    std::string verdict;
    double los = 0.5;
    int matches = 0;
    std::int64_t snapshot_id = 0;
};

// Every ladder run, oldest first.
std::vector<LadderRunView> ladder_runs(const Store& store);

}  // namespace arb::rating

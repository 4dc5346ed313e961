#pragma once
// What `arbiter serve` shows, read live from one results file that a tournament or a ladder may
// be writing: per tournament its standings with intervals, progress, ETA, whether it runs, ended
// or was interrupted, the matches playing now (from their live files and transcripts) and the
// last ones finished; per ladder game its runs with their verdicts and each version's Elo. The
// file is opened read-only (SQLITE_OPEN_READONLY) and read in short statements, so that a writer
// is never held up: each look opens the file, reads and closes it. What depends only on stored
// results is read again only when the file or its -wal changed (size or time).
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/serve/live_frames.hpp"
#include "arbiter/serve/transcript_follow.hpp"
#include "rating/store.hpp"

namespace arb::serve {

struct StateOptions {
    int delay_steps = 0;        // running matches are shown this many steps behind
    std::size_t recent = 20;    // finished matches listed per tournament
};

class SourceState {
public:
    SourceState(int index, std::string db_path, StateOptions options);

    // Reads what changed; a file that cannot be read (yet) is shown with its error and tried again.
    void refresh();
    // {"db", "index", "error"?, "tournaments": [...], "ladders": [...]}
    const nlohmann::json& state() const { return state_; }

    // A running match's page data: {"name", "bots", "step", "seats", "lines", "finished"?: href},
    // nullopt when the tournament (by index in state) runs no such match and never stored it.
    std::optional<nlohmann::json> live_match(std::size_t tournament, const std::string& name);

    // A running match's viewer page from the replay its referee has written so far (arbiter/serve/
    // live_frames.hpp), under a delay the newest at least that many steps behind the match;
    // nullopt while there is none.
    std::optional<std::string> live_viewer(std::size_t tournament, const std::string& name);

    // The folder of a stored match (for its viewer), nullopt when there is none.
    std::optional<std::filesystem::path> match_folder(std::int64_t id);

private:
    void read_stored(const rating::Store& store);
    // The step a page shows of a running match now at `step` (-1 before its first).
    int shown_step(int step) const;

    int index_;
    std::string path_;
    StateOptions options_;
    rating::Store open_store() const;

    std::string fingerprint_;  // of the file and its -wal when stored_ was read ("" = read again)
    nlohmann::json stored_;  // the tournaments and ladders as the stored results say
    nlohmann::json state_;
    std::map<std::string, std::unique_ptr<TranscriptFollower>> followers_;  // by transcript path
    std::vector<std::filesystem::path> folders_;  // each tournament's match folders (not shown on the page)
    std::map<std::pair<std::size_t, std::string>, std::string> live_paths_;  // (tournament, match) -> transcript
    std::map<std::pair<std::size_t, std::string>, std::unique_ptr<LiveBoard>> boards_;  // (tournament, match)
};

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; nullopt for anything else.
std::optional<std::int64_t> parse_utc(const std::string& text);

}  // namespace arb::serve

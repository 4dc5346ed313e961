#pragma once
// A running match's board for the live page: the replay so far that its referee rewrites as it
// plays (rules/live_replay.hpp), read again whenever it changed and kept as snapshots by step,
// so that a page held N steps behind (`arbiter serve --delay N`) is shown the newest one at least
// N steps old and never anything newer; drawn by the game's own viewer (arbiter/view).
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>

#include "arbiter/tournament/live_matches.hpp"
#include "rules/game.hpp"

namespace arb::serve {

class LiveBoard {
public:
    static constexpr std::size_t kMaxSnapshots = 32;
    static constexpr std::size_t kMaxBytes = std::size_t{96} << 20;  // the snapshots' texts together

    LiveBoard(const GameDescriptor& game, tournament::LiveMatchFile file) : game_(game), file_(std::move(file)) {}

    // Reads the live replay again when it changed (its size or time); the snapshots that a page
    // held `delay` steps behind the match's `step` can no longer be shown are dropped.
    void look(int step, int delay);
    // The step of the newest snapshot at step `upto` or before (what page() would show).
    std::optional<int> step_shown(int upto) const {
        const Snapshot* s = shown(upto);
        return s ? std::optional<int>(s->step) : std::nullopt;
    }
    // The viewer page of the newest snapshot at step `upto` or before; nullopt when there is none
    // or its game's viewer does not read it (a replay this build cannot draw).
    std::optional<std::string> page(int upto, const std::string& title);

private:
    struct Snapshot {
        int step = 0;
        std::string text;  // the game's replay text (empty for a folder replay)
    };
    const Snapshot* shown(int upto) const;
    nlohmann::json replay_data(const Snapshot& s) const;
    // The viewer's "io" (the bots' exchanges by step) from the transcript, steps after `step` left out.
    nlohmann::json bot_io_upto(int step) const;

    const GameDescriptor& game_;
    tournament::LiveMatchFile file_;
    std::string stamp_;  // of the file when last read (file_stamp.hpp)
    std::deque<Snapshot> snapshots_;  // by step, oldest first
    std::size_t bytes_ = 0;
    std::optional<int> page_step_;  // the step of the page made last, kept for the next request
    std::string page_;
};

}  // namespace arb::serve

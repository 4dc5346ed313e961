#pragma once
// A running match's replay so far, for the live page (`arbiter serve`). The referee offers it at
// its steps; it is written out whole (replacing the last, atomically) only when enough time has
// passed since the last write: kMinInterval, and at least kCostFactor times what the last write
// took, so that a match pays at most about 1 % of its time for it, whatever the replay's size.
// The file's first line names the step it shows ("live-replay step K"); the game's replay or log
// text follows, as its viewer reads it. A game whose log is a folder written as it plays
// (Koehandel) offers an empty text after making its folder's files whole: the line alone then
// tells the page how far that folder goes.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace arb {

class LiveReplay {
public:
    static constexpr std::chrono::milliseconds kMinInterval{250};
    static constexpr int kCostFactor = 100;
    static constexpr std::string_view kFirstLine = "live-replay step ";

    explicit LiveReplay(std::filesystem::path path) : path_(std::move(path)) {}

    bool on() const { return !path_.empty(); }
    // Writes the step's text when one is due (`text()` is called only then: a clock read is all
    // a step costs otherwise). A file that cannot be written costs the match nothing: the live
    // page shows the last one, or none.
    template <class Text>
    void offer(int step, Text&& text) {
        if (on() && std::chrono::steady_clock::now() >= next_) write(step, text());
    }

private:
    void write(int step, std::string_view text);

    std::filesystem::path path_;
    std::chrono::steady_clock::time_point next_ = std::chrono::steady_clock::now() + kMinInterval;
};

// The step and the text of a live replay file's contents; nullopt when the first line is not one.
struct LiveReplayText {
    int step = 0;
    std::string_view text;
};
std::optional<LiveReplayText> split_live_replay(std::string_view contents);

}  // namespace arb

#pragma once
// Follows a running match's transcript as the table writes it out (core/table/transcript.hpp):
// the step the referee marked last, the time since the table opened, and each seat's requests
// and time charged, read incrementally from where the last look stopped. Memory is bounded
// whatever the file holds: a few numbers per seat and the last kKeptLines lines.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <string>

namespace arb::serve {

struct SeatProgress {
    std::int64_t requests = 0;
    double charged_ms = 0;
};

struct TranscriptLine {
    int step = 0;      // the step it belongs to (the last mark before it)
    std::string text;  // as written, cut at kLineKept bytes
};

class TranscriptFollower {
public:
    static constexpr std::size_t kKeptLines = 400;
    static constexpr std::size_t kLineKept = 300;
    static constexpr std::size_t kReadPerLook = 4 << 20;  // bytes read per look at most

    explicit TranscriptFollower(std::filesystem::path path) : path_(std::move(path)) {}

    // Reads what was added since the last look (a file that is not there yet reads as empty).
    void look();

    int step() const { return step_; }                 // -1 before the first mark
    double elapsed_s() const { return elapsed_s_; }    // the last line's time
    const std::map<std::string, SeatProgress>& seats() const { return seats_; }
    const std::deque<TranscriptLine>& lines() const { return lines_; }

private:
    void take(const std::string& line);

    std::filesystem::path path_;
    std::uintmax_t offset_ = 0;
    std::string partial_;  // a line not yet ended
    bool skipping_ = false;  // inside an overlong line, dropped to its end
    int step_ = -1;
    double elapsed_s_ = 0;
    std::map<std::string, SeatProgress> seats_;
    std::deque<TranscriptLine> lines_;
};

}  // namespace arb::serve

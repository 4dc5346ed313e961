#pragma once
// The match transcript: one line per event of every seat, with the time since the table opened
// ('>' sent, '<' received, '!' printed on stderr, '#' an event), and the referee's step marks
// ("# step K"). Lines are buffered and written out whenever the table waits for a bot (flush),
// so that a match that hangs or dies still leaves what happened, at one write per wait rather
// than one per line. No file = nothing is written.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace arb::process_table_detail {

class Transcript {
public:
    Transcript() = default;
    // Opens `path` (its folder made first); empty = no transcript. Throws UserError.
    explicit Transcript(const std::filesystem::path& path);
    ~Transcript();
    Transcript(const Transcript&) = delete;
    Transcript& operator=(const Transcript&) = delete;

    bool open() const { return file_ != nullptr; }
    // A line of its own, as written ("# limits: ...").
    void header(std::string_view text);
    // A seat's line; a text of several lines gives one transcript line each.
    void seat_line(std::string_view label, char direction, std::string_view text);
    // A line of the referee's (Table::note).
    void note(std::string_view text);
    // The referee's step mark (Table::mark_step).
    void step(int step);
    // Writes out what is buffered: before every wait for a bot, and at the end.
    void flush();

private:
    double seconds() const;

    std::FILE* file_ = nullptr;
    std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
};

// One seat's side of the transcript: its lines, and what it prints on stderr between one request
// and the next, kept in whole lines and bounded per step and per match (the cut is marked; the
// seat's log keeps the bytes, up to its own cap).
class SeatTranscript {
public:
    static constexpr int kLinesPerStep = 40;
    static constexpr std::size_t kBytesPerStep = 4096;
    static constexpr std::size_t kBytesPerMatch = 256 * 1024;
    static constexpr std::size_t kLineKept = 400;  // longer lines are cut there

    SeatTranscript(Transcript& transcript, std::string label) : transcript_(transcript), label_(std::move(label)) {}

    bool open() const { return transcript_.open(); }
    const std::string& label() const { return label_; }
    // A line of the seat's ('>' closes the step's stderr: what follows belongs to this request).
    void line(char direction, std::string_view text);
    // Bytes the bot printed on stderr (or, for a TCP or HTTP bot, on stdout), as they are read.
    void printed(std::string_view bytes);
    // Time charged to a reply: summed over the step, written once ("# charged X ms") when the
    // step ends (end_step), so that a step of many small requests costs one line.
    void charged(double ms) { charged_ms_ += ms, ++charges_; }
    void end_step();
    // The seat's end: its unfinished stderr line and the step's time.
    void finish();

private:
    void close_step();
    void keep_line(std::string_view text);

    Transcript& transcript_;
    std::string label_;
    std::string partial_;          // the stderr line being read (at most kLineKept bytes)
    bool partial_cut_ = false;
    int step_lines_ = 0;
    std::size_t step_bytes_ = 0;
    bool step_cut_said_ = false;
    std::size_t match_bytes_ = 0;
    bool match_cut_said_ = false;
    double charged_ms_ = 0;
    int charges_ = 0;
};

}  // namespace arb::process_table_detail

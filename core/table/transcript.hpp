#pragma once
// The match transcript: one line per event of every seat, with the time since the table opened
// ('>' sent, '<' received, '#' an event), written as it happens so that a match that dies still
// leaves what happened. No file = nothing is written.
#include <chrono>
#include <cstdio>
#include <filesystem>
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

private:
    double seconds() const;

    std::FILE* file_ = nullptr;
    std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
};

}  // namespace arb::process_table_detail

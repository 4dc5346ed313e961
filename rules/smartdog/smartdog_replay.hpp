#pragma once
// The smart-dog replay: the whole game's wire text in the golden transcripts' format, in
// application order, so that `arbiter verify smartdog` (smartdog_verify.hpp) replays it.
//
//   # map /abs/path/simple-1.txt      notes: the match's settings, order, faults, warnings
//   P1 > join alice                   from a player
//   P1 < ...                          to a player
#include <filesystem>
#include <fstream>
#include <string>

#include "rules/smartdog/smartdog_engine.hpp"

namespace arb::smartdog {

// Writes nothing when given an empty path; UserError when the file cannot be opened.
class WireLog {
public:
    // keep_text: also keeps what it wrote, for a live page (text()).
    explicit WireLog(const std::filesystem::path& path, bool keep_text = false);
    void from(int player, const std::string& line);
    void to(int player, const std::string& line);
    void note(const std::string& text);
    const std::string& text() const { return text_; }

private:
    void write(const std::string& line);
    std::ofstream out_;
    bool keep_text_ = false;
    std::string text_;
};

// The notes a transcript starts with: the map (absolute), the players, the options the referee
// changed from the map's (read back by the verifier), the command order and the fault mode.
void note_match_header(WireLog& log, const std::filesystem::path& map, int players, const Params& params, bool arrival,
                       bool abort_on_fault);

}  // namespace arb::smartdog

// The smart-dog wire transcript writer (see the header for the format).
#include "rules/smartdog/smartdog_replay.hpp"

#include <fmt/format.h>

#include "core/user_error.hpp"

namespace arb::smartdog {

WireLog::WireLog(const std::filesystem::path& path, bool keep_text) : keep_text_(keep_text) {
    if (path.empty()) return;
    out_.open(path, std::ios::binary);
    if (!out_) throw UserError("cannot write " + path.string());
}

void WireLog::from(int player, const std::string& line) { write(fmt::format("P{} > {}", player, line)); }
void WireLog::to(int player, const std::string& line) { write(fmt::format("P{} < {}", player, line)); }
void WireLog::note(const std::string& text) { write("# " + text); }

void WireLog::write(const std::string& line) {
    if (out_.is_open()) out_ << line << '\n';
    if (keep_text_) text_.append(line).push_back('\n');
}

void note_match_header(WireLog& log, const std::filesystem::path& map, int players, const Params& params, bool arrival,
                       bool abort_on_fault) {
    log.note("map " + std::filesystem::absolute(map).string());
    log.note(fmt::format("players {}", players));
    log.note(fmt::format("turns {}", params.turns_limit));
    log.note(fmt::format("waitForTurn {}", params.wait_for_turn));
    log.note(arrival ? "order arrival" : "order round-robin, first player rotating");
    if (abort_on_fault) log.note("on-fault abort");
}

}  // namespace arb::smartdog

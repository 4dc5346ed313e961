#include "arbiter/tournament/progress.hpp"

#include <cmath>

#include <fmt/format.h>

namespace arb::tournament {
namespace {

std::string clock_text(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

ProgressDisplay::ProgressDisplay(std::FILE* out, bool terminal, double log_interval_s)
    : out_(out), terminal_(terminal), log_interval_s_(log_interval_s), start_(std::chrono::steady_clock::now()),
      last_emit_(start_) {}

std::string ProgressDisplay::format(const ProgressState& s, double elapsed_s) {
    std::string line = s.total ? fmt::format("[{:>{}}/{}]", s.done, std::to_string(*s.total).size(), *s.total)
                               : fmt::format("[{}]", s.done);
    const double rate = elapsed_s > 0 ? s.done_this_run / elapsed_s : 0;
    line += fmt::format(" {:.2f} matches/s", rate);
    if (s.total && rate > 0) line += " ETA " + clock_text((*s.total - s.done) / rate);
    else if (s.budget_left_s) line += " budget left " + clock_text(*s.budget_left_s);
    if (s.failed > 0) line += fmt::format(" failed {}", s.failed);
    if (!s.leader.empty()) line += " leader: " + s.leader;
    return line;
}

void ProgressDisplay::emit(const ProgressState& state, bool final) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const std::string line = format(state, elapsed);
    if (terminal_) {
        std::fprintf(out_, "\r\033[K%s%s", line.c_str(), final ? "\n" : "");
    } else {
        std::fprintf(out_, "progress %s\n", line.c_str());
    }
    std::fflush(out_);
    last_emit_ = now;
    emitted_ = true;
}

void ProgressDisplay::update(const ProgressState& state) {
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_emit_).count();
    // A terminal can take a redraw per match; a log gets a line every log_interval_s.
    if (terminal_ ? since >= 0.1 : (since >= log_interval_s_ || !emitted_)) emit(state, false);
}

void ProgressDisplay::finish(const ProgressState& state) { emit(state, true); }

}  // namespace arb::tournament

#include "arbiter/tournament/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "arbiter/tournament/worker_pool.hpp"

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
    if (s.faults > 0) line += fmt::format(" faults {}", s.faults);
    if (!s.leader.empty()) line += " leader: " + s.leader;
    return line;
}

void ProgressDisplay::emit(const ProgressState& state, bool final) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const std::string line = format(state, elapsed);
    if (terminal_) {
        std::fprintf(out_, "\r\033[K%s%s", line.c_str(), final ? "\n" : "");
        open_line_ = !final;
    } else {
        std::fprintf(out_, "progress %s\n", line.c_str());
    }
    std::fflush(out_);
    last_emit_ = now;
    emitted_ = true;
}

void ProgressDisplay::line(std::FILE* to, const std::string& text) {
    if (open_line_) {
        std::fprintf(out_, "\r\033[K");
        std::fflush(out_);
        open_line_ = false;
    }
    std::fputs(text.c_str(), to);
    std::fflush(to);
    if (terminal_) last_emit_ = start_;  // the next update redraws at once, with fresh numbers
}

void ProgressDisplay::update(const ProgressState& state) {
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_emit_).count();
    // A terminal can take a redraw per match; a log gets a line every log_interval_s.
    if (terminal_ ? since >= 0.1 : (since >= log_interval_s_ || !emitted_)) emit(state, false);
}

void ProgressDisplay::finish(const ProgressState& state) { emit(state, true); }

namespace {

std::string ordinal(int n) {
    const int tens = n % 100;
    const char* suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

}  // namespace

std::string finished_match_line(int done, std::optional<int> total, const ScheduledMatch& m, const MatchRecord& r) {
    std::string line = fmt::format("Finished match {}{} r{}/g{}/s{}:", done, total ? "/" + std::to_string(*total) : "",
                                   m.round, m.group, m.seating);
    // Seat order, as `arbiter matches` and the report list them; a shared rank reads "=1st".
    for (std::size_t i = 0; i < r.participants.size(); ++i) {
        const auto& p = r.participants[i];
        const bool shared = std::count_if(r.participants.begin(), r.participants.end(),
                                          [&p](const ParticipantResult& o) { return o.rank == p.rank; }) > 1;
        line += fmt::format("{} {} {}{} {:g}", i ? "," : "", p.bot, shared ? "=" : "", ordinal(p.rank), p.score);
        if (p.status != SeatStatus::ok) line += fmt::format(" ({})", to_string(p.status));
    }
    return line + "\n";
}

namespace {

// Busy and total jiffies of all CPUs from /proc/stat's first line; false if unreadable.
bool cpu_jiffies(unsigned long long& busy, unsigned long long& total) {
    std::ifstream in("/proc/stat");
    std::string cpu;
    unsigned long long v[8] = {};
    if (!(in >> cpu) || cpu != "cpu") return false;
    for (auto& x : v)
        if (!(in >> x)) return false;
    total = 0;
    for (auto x : v) total += x;
    busy = total - v[3] - v[4];  // idle and iowait are not busy
    return true;
}

}  // namespace

double busy_cores_now(double sample_s) {
    unsigned long long b0 = 0, t0 = 0, b1 = 0, t1 = 0;
    if (cpu_jiffies(b0, t0)) {
        std::this_thread::sleep_for(std::chrono::duration<double>(sample_s));
        if (cpu_jiffies(b1, t1) && t1 > t0) return static_cast<double>(b1 - b0) / static_cast<double>(t1 - t0) * core_count();
    }
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : 0;
}

bool load_threatens_timing(double busy_cores, int jobs, int cores) {
    return busy_cores + std::min(jobs, cores) > cores + 0.5;
}

}  // namespace arb::tournament

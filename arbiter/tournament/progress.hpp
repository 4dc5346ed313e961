#pragma once
// The progress display: on a terminal one line redrawn in place
// ("[ 37/120] 2.1 matches/s  ETA 0:40  leader: foo 62%"); in a log, the same text as plain
// lines at most every `log_interval` seconds and at the end. Other lines (a finished match, a
// ratings table) go through line(), which clears the redrawn line first so the two never mix.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "arbiter/tournament/schedule.hpp"
#include "core/match_record.hpp"

namespace arb::tournament {

struct ProgressState {
    int done = 0;                 // matches with a result (earlier runs included)
    std::optional<int> total;     // unknown with a time budget and no round limit
    int done_this_run = 0;
    int failed = 0;
    int faults = 0;               // seats that ended in a fault (forfeits included), stored results
    std::string leader;           // "name 62%" or ""
    std::optional<double> budget_left_s;
};

class ProgressDisplay {
public:
    ProgressDisplay(std::FILE* out, bool terminal, double log_interval_s = 10.0);
    void update(const ProgressState& state);
    void finish(const ProgressState& state);  // final line (and newline on a terminal)
    // Writes text (whole lines) to `to`; on a terminal the progress line is cleared first and
    // redrawn by the next update.
    void line(std::FILE* to, const std::string& text);

    // The text of one progress line (without redraw codes), for tests and logs.
    static std::string format(const ProgressState& state, double elapsed_s);

private:
    void emit(const ProgressState& state, bool final);

    std::FILE* out_;
    bool terminal_;
    double log_interval_s_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_emit_;
    bool emitted_ = false;
    bool open_line_ = false;  // a redrawn line without its newline is on the terminal
};

// "Finished match 7/32 r0/g1/s2: r1 2nd 180 (timeout), heur 1st 312": seats in seat order with
// their rank ("=1st" when shared), each seat's fault in brackets.
std::string finished_match_line(int done, std::optional<int> total, const ScheduledMatch& match,
                                const MatchRecord& record);

// CPU time other programs use now, in cores: /proc/stat sampled over `sample_s` (the 1-minute
// load average, which lags and counts an earlier run of ours, only where /proc/stat is missing).
double busy_cores_now(double sample_s = 0.25);
// Whether that load threatens the bots' timing: the tournament's own `jobs` matches plus what
// others use do not fit in the cores (half a core of slack).
bool load_threatens_timing(double busy_cores, int jobs, int cores);

}  // namespace arb::tournament

#pragma once
// The progress display: on a terminal one line redrawn in place
// ("[ 37/120] 2.1 matches/s  ETA 0:40  leader: foo 62%"); in a log, the same text as plain
// lines at most every `log_interval` seconds and at the end.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

namespace arb::tournament {

struct ProgressState {
    int done = 0;                 // matches with a result (earlier runs included)
    std::optional<int> total;     // unknown with a time budget and no round limit
    int done_this_run = 0;
    int failed = 0;
    std::string leader;           // "name 62%" or ""
    std::optional<double> budget_left_s;
};

class ProgressDisplay {
public:
    ProgressDisplay(std::FILE* out, bool terminal, double log_interval_s = 10.0);
    void update(const ProgressState& state);
    void finish(const ProgressState& state);  // final line (and newline on a terminal)

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
};

}  // namespace arb::tournament

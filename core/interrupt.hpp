#pragma once
// Ctrl-C during long work (tournaments, ladders). The first SIGINT or SIGTERM asks the work to
// stop at its next safe point: no new match starts, the matches in progress finish and are
// stored, and the command says how to resume. A second signal ends the process at once; its
// bots die with it (PR_SET_PDEATHSIG) and an unfinished match is simply not stored.

namespace arb {

// Installs the handlers for its lifetime and restores the previous ones after. One at a time.
class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
};

// True once a signal arrived inside an InterruptScope.
bool interrupt_requested();
// The signal that asked to stop (SIGINT or SIGTERM), 0 if none; exit with 128 + it.
int interrupt_signal();

}  // namespace arb

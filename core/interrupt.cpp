#include "core/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <stdexcept>

#include <signal.h>
#include <unistd.h>

namespace arb {
namespace {

// Lock-free atomics are safe to touch from a signal handler.
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
std::atomic<bool> g_active{false};
struct sigaction g_previous_int {}, g_previous_term {};

void on_signal(int sig) {
    if (g_count.fetch_add(1) > 0) {
        // Second signal: stop now, as if we had no handler.
        ::signal(sig, SIG_DFL);
        ::raise(sig);
        return;
    }
    g_signal.store(sig);
    static const char message[] =
        "\narbiter: stopping after the matches in progress (press Ctrl-C again to stop at once)\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
}

}  // namespace

InterruptScope::InterruptScope() {
    if (g_active.exchange(true)) throw std::logic_error("InterruptScope: only one at a time");
    g_signal.store(0);
    g_count.store(0);
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // system calls in progress continue; the flag is polled
    sigaction(SIGINT, &action, &g_previous_int);
    sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptScope::~InterruptScope() {
    sigaction(SIGINT, &g_previous_int, nullptr);
    sigaction(SIGTERM, &g_previous_term, nullptr);
    g_active.store(false);
}

bool interrupt_requested() { return g_signal.load() != 0; }

int interrupt_signal() { return g_signal.load(); }

}  // namespace arb

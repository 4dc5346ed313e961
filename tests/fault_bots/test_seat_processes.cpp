// Each seat's process limit is its own: one seat that holds every process it may start leaves
// the next seat of the same match its whole limit. Under a root arbiter each seat is a user id of
// its own (or a cgroup); under a non-root arbiter's namespaces each seat is a user namespace of
// its own, where the kernel counts RLIMIT_NPROC apart. Without the sandbox, as a non-root user,
// RLIMIT_NPROC counts every process of the user, so the first seat starves the second.
#include "core/confine/user_namespace.hpp"
#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

// Seat 0 holds `held` children, then seat 1 starts 8 threads: how many it could start.
std::string threads_beside_a_holder(SandboxMode mode, int max_processes, int held) {
    TableOptions options = with_sandbox(mode);
    options.limits.max_processes = max_processes;
    OneLineSeats seats(seats_running(HOST_ATTACK_BOT_PATH, {"holder", "starter"}, 20s), options);
    const std::string holding = seats.ask(0, "hold " + std::to_string(held));
    INFO("the holder answered " << holding);
    return seats.ask(1, "threads 8");
}

}  // namespace

TEST_CASE("one seat holding every process it may start leaves another seat its own process limit") {
    // The holder keeps its limit full: its own process and 15 children of 16.
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const std::string started = threads_beside_a_holder(mode, 16, 15);
        if (mode == SandboxMode::bwrap && !host_root()) {
            // bwrap's seats are all the user's: only the arbiter's own namespaces keep them apart.
            MESSAGE("bwrap under a non-root arbiter shares the user's process limit: " << started);
            continue;
        }
        CHECK(started == "threads 8");
    }
    if (!host_root()) {
        // Without the sandbox the limit is the user's: the holder's children count for the starter.
        const std::string open = threads_beside_a_holder(SandboxMode::none, 16, 15);
        MESSAGE("without the sandbox the second seat started: " << open);
        CHECK(open != "threads 8");
    }
}

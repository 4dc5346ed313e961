// Seats of one match cannot signal each other through what they share: every seat sees the same
// inodes (here the bot's own program, which both seats run), and a lock one seat holds, a watch
// on an inode another opens, or a futex on a file both map shared is a channel between them
// unless the syscall filter answers it the same whatever the other seat does
// (core/confine/syscall_filter.cpp, "seat_channels"). Without the sandbox every channel passes its bit.
// The namespace's init cannot be traced by the bot it watches over.
#include "core/confine/view_skeleton.hpp"
#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

// A sender and a receiver, both running the host attack bot.
struct TwoSeats : OneLineSeats {
    explicit TwoSeats(SandboxMode mode)
        : OneLineSeats(seats_running(HOST_ATTACK_BOT_PATH, {"sender", "receiver"}, 10s), with_sandbox(mode)) {}
};

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("seats of one match cannot pass a bit through a lock, a watch or a shared mapping of a file both see") {
    const std::string shared = HOST_ATTACK_BOT_PATH;  // both seats run it: the same inode
    {
        TwoSeats open(SandboxMode::none);  // without the sandbox each channel passes its bit
        CHECK(open.ask(1, "probe-lock " + shared) == "free");
        CHECK(open.ask(0, "lock " + shared) == "locked");
        CHECK(open.ask(1, "probe-lock " + shared) == "held");
        CHECK(open.ask(1, "watch " + shared) == "watching");
        CHECK(open.ask(0, "touch " + shared) == "touched");
        CHECK(open.ask(1, "events") != "0 events");
        CHECK(open.ask(1, "map-shared " + shared) == "mapped");
    }
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        TwoSeats seats(mode);
        CHECK(seats.ask(0, "lock " + shared) == "locked");  // granted, and nothing held
        CHECK(seats.ask(1, "probe-lock " + shared) == "free");
        CHECK(seats.ask(1, "watch " + shared) == "cannot watch: Function not implemented");
        CHECK(seats.ask(0, "touch " + shared) == "touched");
        CHECK(seats.ask(1, "map-shared " + shared) == "cannot map: Permission denied");
    }
}

TEST_CASE("seats of one match cannot pass anything through the root their views share") {
    // Both seats run the same program: their roots are clones of one shared skeleton
    // (core/confine/view_skeleton.hpp), each clone read-only, so nothing one seat makes in its
    // root reaches the other, nor a later match's bots. Under a non-root arbiter the seat's user
    // owns the skeleton's files: only the read-only clone stops it there.
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        TwoSeats seats(mode);
        const std::string wrote = seats.ask(0, "write /planted");
        const std::string made = seats.ask(0, "mkdir /dev/planted");
        const std::string linked = seats.ask(0, "symlink /etc /planted-link");
        CHECK(starts(wrote, "cannot write"));
        CHECK(starts(made, "cannot make"));
        CHECK(starts(linked, "cannot link"));
        CHECK(starts(seats.ask(1, "read /planted"), "cannot read"));
        CHECK(starts(seats.ask(1, "read /planted-link/hostname"), "cannot read"));
        CHECK(starts(seats.ask(1, "list /dev/planted"), "cannot list"));
    }
}

TEST_CASE("a confined bot cannot trace its namespace's init nor write its memory") {
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        TwoSeats seats(mode);
        CHECK(seats.ask(0, "trace-init") == "EPERM EACCES");
    }
}

TEST_CASE("a confined bot's cgroup and mount table name neither the arbiter nor its files") {
    const std::string pid = std::to_string(::getpid());
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        TwoSeats seats(mode);
        const std::string cgroup = seats.ask(0, "cat /proc/self/cgroup");
        const std::string mounts = seats.ask(0, "cat /proc/self/mountinfo");
        INFO(cgroup);
        INFO(mounts);
        REQUIRE(starts(cgroup, "text "));
        REQUIRE(starts(mounts, "text "));
        // The seat's cgroup is named arbiter-<pid>.<pid namespace>-<n>-<label> on the host; here it is "/". The
        // /etc copy was a folder <pid>-etc of /run/arbiter or /dev/shm/arbiter.
        CHECK(cgroup.find("arbiter-" + pid) == std::string::npos);
        for (const std::string& leak : std::vector<std::string>{"/run/arbiter", "/dev/shm/arbiter", "-etc", "/" + pid + "-", "arbiter-" + pid})
            CHECK(mounts.find(leak) == std::string::npos);
    }
    TwoSeats open(SandboxMode::none);
    if (open.table->limit_mechanism().rfind("cgroup", 0) == 0)  // without the sandbox the name shows
        CHECK(open.ask(0, "cat /proc/self/cgroup").find("arbiter-" + pid + ".") != std::string::npos);
}

// It fills the run's skeletons, so every later start of its process builds its own root: last in this file.
TEST_CASE("past the skeletons a run keeps, a bot's root is built for it, read-only all the same") {
    // A bot that rewrites its #! line between matches can give its seat a new layout each time:
    // the run keeps kMaxViewSkeletons of them, then builds each bot's root in a tmpfs of its own.
    // The sandboxes first: a non-root arbiter makes mounts only once in its own user namespace.
    const std::vector<SandboxMode> modes = confined_modes(HOST_ATTACK_BOT_PATH);
    int made = 0;  // earlier starts of this process may have made some already
    for (int i = 0; i <= kMaxViewSkeletons; ++i) {
        SkeletonLayout filler;
        filler.dirs = {"dev", "filler-" + std::to_string(i)};
        filler.dev = "dev";
        made += view_skeleton(filler) >= 0;
    }
    REQUIRE(made > 0);
    SkeletonLayout one_more;
    one_more.dirs = {"dev", "one-more"};
    one_more.dev = "dev";
    REQUIRE(view_skeleton(one_more) == -1);
    for (const SandboxMode mode : modes) {
        INFO("sandbox " << to_string(mode));
        // Alone in its process (as ctest runs each case) the seats' layout is past the budget and
        // each root is built for its bot; run after the other cases (the unprivileged suite runs
        // the file whole) their skeleton is already made and shared, and is checked once more.
        TwoSeats seats(mode);
        CHECK(starts(seats.ask(0, "write /planted"), "cannot write"));
        CHECK(starts(seats.ask(0, "mkdir /dev/planted"), "cannot make"));
        CHECK(starts(seats.ask(1, "read /planted"), "cannot read"));
        // The root it was built works as the shared one did: the view's folders and /dev are there.
        CHECK_FALSE(starts(seats.ask(1, "list /usr/bin"), "cannot"));
        CHECK_FALSE(starts(seats.ask(1, "list /dev"), "cannot"));
    }
}

// Seats of one match cannot signal each other through what they share: every seat sees the same
// inodes (here the bot's own program, which both seats run), and a lock one seat holds, a watch
// on an inode another opens, or a futex on a file both map shared is a channel between them
// unless the syscall filter answers it the same whatever the other seat does
// (core/syscall_filter.cpp, "seat_channels"). Without the sandbox every channel passes its bit.
// The namespace's init cannot be traced by the bot it watches over.
#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

struct TwoSeats {
    explicit TwoSeats(SandboxMode mode) {
        std::vector<SeatLaunch> seats(2);
        for (int s = 0; s < 2; ++s) {
            const std::string name = s == 0 ? "sender" : "receiver";
            seats[s].info = SeatInfo{s, name, name};
            seats[s].bot = parse_bot_spec("name=" + name + " cmd=" + quote_word(HOST_ATTACK_BOT_PATH));
            seats[s].time = per_request(10s);
        }
        table = ProcessTable::launch(std::move(seats), with_sandbox(mode));
    }
    ~TwoSeats() { table->close(); }
    std::string ask(int seat, const std::string& line) {
        const Reply reply = table->ask(seat, line + "\n", one_line_framer());
        return reply.ok() ? reply.first_line() : "failed: " + std::string(to_string(reply.status));
    }
    std::unique_ptr<ProcessTable> table;
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

TEST_CASE("a confined bot cannot trace its namespace's init nor write its memory") {
    for (const SandboxMode mode : confined_modes(HOST_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        TwoSeats seats(mode);
        CHECK(seats.ask(0, "trace-init") == "EPERM EACCES");
    }
}

#pragma once
// Helpers for tests that run the process table against the fault-bot zoo.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/bot_spec.hpp"
#include "core/table/process_table.hpp"
#include "core/user_error.hpp"
#include "tests/test_scratch.hpp"

namespace arb::testing {

inline std::string fault_bot_path() { return FAULT_BOT_PATH; }

// A per-request limit plus grace: the clock most process tests give their bots.
inline TimeControl per_request(Millis limit, Millis grace = Millis{50}) {
    return TimeControl{.per_request = limit, .grace = grace};
}

// A seat running the fault bot with the given flags.
inline SeatLaunch fault_seat(const std::string& label, std::vector<std::string> flags, TimeControl time = {}) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, label, label};
    launch.bot = parse_bot_spec("name=" + label + " cmd=" + quote_word(fault_bot_path()));
    for (auto& f : flags) launch.bot.argv.push_back(std::move(f));
    launch.time = time;
    return launch;
}

// One seat's table, with short quit and SIGTERM graces so that tests stop their bots quickly.
inline std::unique_ptr<ProcessTable> launch_one(SeatLaunch seat, TableOptions options = {}) {
    options.term_grace = Millis{100};
    options.quit_grace = Millis{100};
    std::vector<SeatLaunch> seats{std::move(seat)};
    return ProcessTable::launch(std::move(seats), std::move(options));
}

// The one-line UserError launching these seats throws; the test fails when it does not throw.
inline std::string launch_error(std::vector<SeatLaunch> seats) {
    try {
        (void)ProcessTable::launch(std::move(seats), TableOptions{});
    } catch (const UserError& e) {
        return e.what();
    }
    FAIL("launch should throw");
    return {};
}

// A fresh, empty directory for one test.
inline std::filesystem::path scratch_dir(const std::string& name) {
    static int counter = 0;
    const auto dir = arb::testing::fresh_scratch(std::to_string(counter++) + "-" + name);
    return dir;
}

// Pids a fault bot recorded with --pidfile ("pid N" / "child N" lines).
inline std::vector<pid_t> recorded_pids(const std::filesystem::path& pidfile) {
    std::vector<pid_t> pids;
    std::ifstream in(pidfile);
    std::string what;
    pid_t pid = 0;
    while (in >> what >> pid) pids.push_back(pid);
    return pids;
}

// True when no process (not even a zombie) has this pid.
inline bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// Checks that the bot recorded its pids and that every one of them is gone (reaped).
inline void check_recorded_pids_gone(const std::filesystem::path& pidfile) {
    const auto pids = recorded_pids(pidfile);
    CHECK_FALSE(pids.empty());
    for (pid_t pid : pids) {
        INFO("pid " << pid);
        CHECK(process_gone(pid));
    }
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace arb::testing

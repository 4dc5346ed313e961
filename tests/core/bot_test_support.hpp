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

#include "core/bot_spec.hpp"
#include "core/process_table.hpp"

namespace arb::testing {

inline std::string fault_bot_path() { return FAULT_BOT_PATH; }

// A seat running the fault bot with the given flags.
inline SeatLaunch fault_seat(const std::string& label, std::vector<std::string> flags, TimeControl time = {}) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, label, label};
    launch.bot = parse_bot_spec("name=" + label + " cmd=" + quote_word(fault_bot_path()));
    for (auto& f : flags) launch.bot.argv.push_back(std::move(f));
    launch.time = time;
    return launch;
}

// A fresh, empty directory for one test.
inline std::filesystem::path scratch_dir(const std::string& name) {
    static int counter = 0;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("arbiter-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
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

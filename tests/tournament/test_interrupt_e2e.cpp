// Ctrl-C on a real tournament: the arbiter binary plays the demo config with the Planowanie
// sample bots; SIGINT arrives after a few matches are stored. It must finish the match in
// progress, store it, leave no process behind, exit 130 and say how to resume; running the same
// command again must complete the tournament with the table an uninterrupted run prints.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "rating/store.hpp"
#include "tests/test_scratch.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kArbiter = fs::path(ARBITER_BINARY_DIR) / "bin" / "arbiter";
const fs::path kConfig = fs::path(ARBITER_SOURCE_DIR) / "configs" / "demo.json";

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Starts `arbiter tournament` on the demo config with its output in files under dir.
pid_t start_tournament(const fs::path& dir, const std::string& tag) {
    const std::vector<std::string> args = {kArbiter.string(), "tournament", "--config", kConfig.string(),
                                           "--db", (dir / "demo.sqlite").string(), "--out", (dir / "out").string(),
                                           "--rounds", "2", "-j", "1", "--no-progress"};
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    const std::string out = (dir / (tag + ".stdout")).string(), err = (dir / (tag + ".stderr")).string();
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    REQUIRE(rc == 0);
    return pid;
}

// Exit code of pid (128 + signal if it was killed), waiting at most `limit`; -1 on time-out.
int wait_exit(pid_t pid, std::chrono::seconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::this_thread::sleep_for(20ms);
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return -1;
}

std::int64_t stored_matches(const fs::path& db) {
    if (!fs::exists(db)) return 0;
    try {
        return arb::rating::Store::open(db.string(), arb::rating::OpenMode::read_only).match_count();
    } catch (const std::exception&) {
        return 0;  // not created yet
    }
}

// Processes whose parent is this test: orphaned bots land here (we are a child subreaper).
std::vector<pid_t> leftover_children() {
    std::vector<pid_t> out;
    const std::string me = std::to_string(::getpid());
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream status(entry.path() / "status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("PPid:", 0) == 0) {
                if (line.substr(line.find_first_not_of(" \t", 5)) == me) out.push_back(std::stoi(name));
                break;
            }
    }
    return out;
}

// The ratings and faults tables after the summary line: the match lines before it differ (a
// resumed run prints only its own), the summary line has times and counts, and the lines
// from "results:" on name each run's own folder; the tables must not differ.
std::string after_first_line(const std::string& text) {
    const std::size_t summary = text.find("tournament demo: ");
    if (summary == std::string::npos) return text;
    const std::string rest = text.substr(text.find('\n', summary) + 1);
    return rest.substr(0, rest.find("results: "));
}

}  // namespace

TEST_CASE("Ctrl-C on a tournament finishes the match in progress, exits 130, and the rerun completes it") {
    REQUIRE(fs::exists(kArbiter));
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    const fs::path dir = arb::testing::fresh_scratch("interrupt");
    fs::create_directories(dir / "reference");
    fs::create_directories(dir / "interrupted");

    const pid_t reference = start_tournament(dir / "reference", "run");
    REQUIRE(wait_exit(reference, 300s) == 0);
    const std::string reference_out = read_file(dir / "reference" / "run.stdout");
    REQUIRE(reference_out.find("16 matches (16 played now") != std::string::npos);

    const fs::path db = dir / "interrupted" / "demo.sqlite";
    const pid_t pid = start_tournament(dir / "interrupted", "first");
    const auto until = std::chrono::steady_clock::now() + 120s;
    while (stored_matches(db) < 2 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
    REQUIRE(stored_matches(db) >= 2);
    REQUIRE(::kill(pid, SIGINT) == 0);
    const int code = wait_exit(pid, 120s);
    const std::string out = read_file(dir / "interrupted" / "first.stdout");
    const std::string err = read_file(dir / "interrupted" / "first.stderr");
    INFO("stdout: " << out);
    INFO("stderr: " << err);
    CHECK(code == 130);
    CHECK(out.find("INTERRUPTED (run the same command again to resume)") != std::string::npos);
    CHECK(err.find("stopping after the matches in progress") != std::string::npos);
    const std::int64_t stored = stored_matches(db);
    CHECK(stored >= 2);
    CHECK(stored < 16);
    CHECK(leftover_children().empty());

    const pid_t again = start_tournament(dir / "interrupted", "second");
    CHECK(wait_exit(again, 300s) == 0);
    const std::string resumed = read_file(dir / "interrupted" / "second.stdout");
    CHECK(resumed.find("16 matches (" + std::to_string(16 - stored) + " played now, " + std::to_string(stored) +
                       " from earlier runs)") != std::string::npos);
    CHECK(after_first_line(resumed) == after_first_line(reference_out));
    CHECK(leftover_children().empty());
    fs::remove_all(dir);
}

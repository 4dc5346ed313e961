// A contestant attacks the host, the arbiter and the other contestants (host_attack_bot.cpp):
// kernel settings, the running match's files, other bots' folders, root-only files, host
// sockets, the arbiter's environment, the cgroup tree, unbounded writes. Each attack is shown to
// succeed without the defence (--sandbox none, or the limit lifted), so each test can fail, and
// to be refused by default under every sandbox this machine runs.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <thread>
#include <sstream>

#include "core/confine/seat_users.hpp"
#include "core/confine/user_namespace.hpp"
#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

struct Attacker {
    Attacker(SandboxMode mode, TableOptions options = {}, std::filesystem::path dir = {}) {
        options.limits.sandbox = mode;
        options.quit_grace = Millis{100};
        options.term_grace = Millis{100};
        SeatLaunch seat;
        seat.info = SeatInfo{0, "attacker", "attacker"};
        seat.bot = parse_bot_spec("name=attacker cmd=" + quote_word(HOST_ATTACK_BOT_PATH));
        seat.bot.dir = std::move(dir);
        seat.time = per_request(10s);
        table = launch_one(seat, options);
    }
    ~Attacker() { table->close(); }
    std::string operator()(const std::string& line) {
        const Reply reply = table->ask(0, line + "\n", one_line_framer());
        return reply.ok() ? reply.first_line() : "failed: " + std::string(to_string(reply.status));
    }
    std::unique_ptr<ProcessTable> table;
};

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

std::vector<SandboxMode> modes() { return confined_modes(HOST_ATTACK_BOT_PATH); }

// The confined modes, then none: for defences that hold whatever the sandbox.
std::vector<SandboxMode> modes_and_none() {
    std::vector<SandboxMode> all = modes();
    all.push_back(SandboxMode::none);
    return all;
}

}  // namespace

TEST_CASE("a confined bot never runs as the host's root") {
    if (!host_root()) {
        // An unprivileged arbiter's seat runs in a user namespace of its own, not as its root.
        for (const SandboxMode mode : modes())
            if (mode == SandboxMode::namespaces) CHECK(Attacker(mode)("id") == "uid " + std::to_string(kSeatUidInside));
        return;
    }
    CHECK(Attacker(SandboxMode::none)("id") == "uid 0");  // what a bot was without the defence
    for (const SandboxMode mode : modes()) {
        INFO("sandbox " << to_string(mode));
        const std::string id = Attacker(mode)("id");
        REQUIRE(starts(id, "uid "));
        CHECK(std::stoll(id.substr(4)) >= kSeatUidBase);
    }
}

TEST_CASE("a bot holds no descriptor of the arbiter's: only its three pipes, under every sandbox") {
    // The listing's own descriptor is the fourth entry. Under bwrap the sandbox's init is passed its
    // program, its status pipe and the syscall filter: a program that kept the init's memfd could
    // rewrite the init every later bot runs.
    CHECK(Attacker(SandboxMode::none)("list /proc/self/fd") == "4 entries");
    for (const SandboxMode mode : modes()) {
        INFO("sandbox " << to_string(mode));
        CHECK(Attacker(mode)("list /proc/self/fd") == "4 entries");
    }
}

TEST_CASE("a confined bot cannot write kernel settings (core_pattern runs a program as root on a crash)") {
    const std::string setting = "/proc/sys/kernel/core_pattern";
    if (host_root()) {
        Attacker open(SandboxMode::none);
        CHECK(open("sysctl " + setting) == "wrote setting");
        CHECK(open("sysctl /proc/sys/net/ipv4/ip_default_ttl") == "wrote setting");
    }
    for (const SandboxMode mode : modes()) {
        INFO("sandbox " << to_string(mode));
        Attacker attacker(mode);
        CHECK(starts(attacker("sysctl " + setting), "cannot write setting"));
        CHECK(starts(attacker("sysctl /proc/sys/vm/drop_caches"), "cannot write setting"));
        // A pipe seat's network namespace is lent again: a setting left in it would reach the next bot.
        CHECK(starts(attacker("sysctl /proc/sys/net/ipv4/ip_default_ttl"), "cannot write setting"));
        const std::string keys = attacker("read /proc/keys");  // an empty file (bwrap's is a device it may not open)
        CHECK((keys == "read 0 bytes" || keys == "cannot read: Permission denied"));
        const std::string kcore = attacker("read /proc/kcore");  // absent on some kernels
        CHECK((kcore == "read 0 bytes" || starts(kcore, "cannot read")));
    }
}

TEST_CASE("a confined bot sees none of the match's files, other bots' folders, root-only files or host sockets") {
    const auto match = scratch_dir("attack-match");
    const auto other_bot = scratch_dir("attack-other-bot");
    const auto own = scratch_dir("attack-own");
    ::chmod(own.c_str(), 0777);  // under bwrap a seat user writes only where others may
    std::ofstream(other_bot / "strategy.txt") << "the other contestant's secret\n";
    std::ofstream(match / "results.sqlite") << "the tournament's database\n";
    // A socket of a host service, in a folder others may enter.
    const auto socket_path = (match / "service.sock").string();
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener, 4) == 0);
    ::chmod(socket_path.c_str(), 0777);
    const std::vector<std::string> secrets = {"read " + (other_bot / "strategy.txt").string(),
                                              "read " + (match / "results.sqlite").string(),
                                              "read " + (match / "transcript.txt").string()};
    auto attempt = [&](SandboxMode mode) {
        TableOptions options;
        options.transcript_path = match / "transcript.txt";  // the running match's own transcript
        Attacker attacker(mode, options, own);
        std::vector<std::string> answers;
        for (const auto& line : secrets) answers.push_back(attacker(line));
        answers.push_back(attacker("unix " + socket_path));
        answers.push_back(attacker("list /sys/fs/cgroup"));
        answers.push_back(attacker("read /etc/shadow"));
        answers.push_back(attacker("list /root"));
        return answers;
    };
    const auto open = attempt(SandboxMode::none);
    for (std::size_t i = 0; i < 3; ++i) CHECK(starts(open[i], "read "));
    CHECK(open[3] == "connected");
    CHECK_FALSE(starts(open[4], "cannot"));
    if (host_root()) CHECK(starts(open[5], "read "));
    for (const SandboxMode mode : modes()) {
        INFO("sandbox " << to_string(mode));
        const auto confined = attempt(mode);
        for (std::size_t i = 0; i < 3; ++i) CHECK(starts(confined[i], "cannot read"));
        CHECK(starts(confined[3], "not connected"));
        CHECK(starts(confined[4], "cannot list"));
        CHECK(starts(confined[5], "cannot read"));
        CHECK((starts(confined[6], "cannot list") || confined[6] == "0 entries" || confined[6] == "1 entries"));
    }
    ::close(listener);
}

TEST_CASE("the arbiter's environment stays out of every bot, but what is passed on by name") {
    ::setenv("ARBITER_TEST_HOST_SECRET", "host-secret-17", 1);
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        CHECK(Attacker(mode)("env ARBITER_TEST_HOST_SECRET") == "ARBITER_TEST_HOST_SECRET unset");
        CHECK(starts(Attacker(mode)("env PATH"), "PATH=/"));
        TableOptions options;
        options.limits.pass_env = {"ARBITER_TEST_HOST_SECRET"};
        CHECK(Attacker(mode, options)("env ARBITER_TEST_HOST_SECRET") == "ARBITER_TEST_HOST_SECRET=host-secret-17");
    }
    ::unsetenv("ARBITER_TEST_HOST_SECRET");
}

TEST_CASE("a bot's writes are bounded: no file past --disk-mib, and its /tmp and /dev/shm are that size") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-disk");
        ::chmod(own.c_str(), 0777);
        TableOptions bounded;
        bounded.limits.disk_mib = 8;
        TableOptions unbounded;
        unbounded.limits.disk_mib = 0;
        // Two files: the two tables may get different seat users (another test process may hold
        // the first free id meanwhile), and one seat user may not truncate the other's file.
        CHECK(Attacker(mode, unbounded, own)("fill " + (own / "big-unbounded").string() + " 12") == "filled 12 MiB");
        const std::string bounded_fill = Attacker(mode, bounded, own)("fill " + (own / "big-bounded").string() + " 12");
        INFO("the bounded bot answered '" << bounded_fill << "'");
        CHECK(starts(bounded_fill, "filled 8 MiB: "));
        std::filesystem::remove(own / "big-unbounded");
        std::filesystem::remove(own / "big-bounded");
        if (mode == SandboxMode::none) continue;
        // Many files below the size limit still fill only the private /tmp's size.
        Attacker attacker(mode, bounded, own);
        std::string tmp_total;
        int filled = 0;
        for (int i = 0; i < 3; ++i) {
            const std::string answer = attacker("fill /tmp/part" + std::to_string(i) + " 4");
            filled += std::stoi(answer.substr(7));
        }
        CHECK(filled < 12);
        CHECK(starts(attacker("fill /dev/shm/x 12"), "filled 8 MiB: "));
    }
}

TEST_CASE("a bot cannot fill the disk through its folder: many files below the size limit, its folder and /tmp share one bound") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-disk-files");
        ::chmod(own.c_str(), 0777);
        TableOptions bounded;
        bounded.limits.disk_mib = 8;
        int filled = 0;
        {
            Attacker attacker(mode, bounded, own);
            // /tmp is the bot's own under a sandbox; without one, the folder stands in for it.
            const std::string tmp = mode == SandboxMode::none ? (own / "part2").string() : "/tmp/part2";
            for (const std::string& part : {(own / "part0").string(), (own / "part1").string(), tmp}) {
                const std::string answer = attacker("fill " + part + " 4");
                filled += std::stoi(answer.substr(7));
            }
        }
        if (mode == SandboxMode::none) {
            CHECK(filled == 12);  // without the defence every file goes in
        } else if (mode == SandboxMode::namespaces) {
            CHECK(filled <= 8);
        } else {
            MESSAGE("bwrap bounds each file and its /tmp, not its folder and /tmp together: " << filled << " MiB went in");
        }
        std::filesystem::remove_all(own);
    }
}

TEST_CASE("a confined bot's changes reach its folder when its seat ends, as its owner's files, whatever links it left") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-write-back");
        const auto outside = scratch_dir("attack-write-back-outside");
        ::chmod(own.c_str(), 0777);
        std::ofstream(own / "keep") << "kept\n";
        std::ofstream(own / "gone") << "to be removed\n";
        std::filesystem::create_directories(own / "folder" / "inner");
        ::chmod((own / "folder").c_str(), 0777);  // a seat user of bwrap writes the folder itself
        // A link left by an earlier match, pointing out of the folder.
        std::filesystem::create_directory_symlink(outside, own / "escape");
        {
            Attacker attacker(mode, {}, own);
            CHECK(attacker("write " + (own / "new").string()) == "wrote");
            CHECK(attacker("remove " + (own / "gone").string()) == "removed 1");
            CHECK(attacker("remove " + (own / "escape").string()) == "removed 1");
            CHECK(attacker("mkdir " + (own / "escape").string()) == "made");
            CHECK(attacker("write " + (own / "escape" / "planted").string()) == "wrote");
            CHECK(attacker("remove " + (own / "folder").string()) == "removed 2");
            CHECK(attacker("write " + (own / "folder").string()) == "wrote");
            // The namespaces sandbox keeps the changes on the seat's scratch while it plays.
            if (mode == SandboxMode::namespaces) CHECK_FALSE(std::filesystem::exists(own / "new"));
        }
        CHECK(read_file(own / "new") == "written by a bot\n");
        CHECK(read_file(own / "keep") == "kept\n");
        CHECK_FALSE(std::filesystem::exists(own / "gone"));
        CHECK(std::filesystem::is_regular_file(own / "folder"));
        CHECK(std::filesystem::is_directory(std::filesystem::symlink_status(own / "escape")));
        CHECK(std::filesystem::exists(own / "escape" / "planted"));
        CHECK_FALSE(std::filesystem::exists(outside / "planted"));
        struct stat made {};
        struct stat folder {};
        REQUIRE(::stat((own / "new").c_str(), &made) == 0);
        REQUIRE(::stat(own.c_str(), &folder) == 0);
        // Under bwrap and none a seat user writes the folder itself; the namespaces sandbox shows
        // the folder as the bot's own and stores what it makes as the owner's.
        if (mode == SandboxMode::namespaces) CHECK(made.st_uid == folder.st_uid);
        std::filesystem::remove_all(own);
        std::filesystem::remove_all(outside);
    }
}

namespace {

// "name=value name=value ..." of the kernel attack bot.
std::map<std::string, std::string> kernel_report(SandboxMode mode) {
    SeatLaunch seat;
    seat.info = SeatInfo{0, "kernel", "kernel"};
    seat.bot = parse_bot_spec("name=kernel cmd=" + quote_word(KERNEL_ATTACK_BOT_PATH));
    seat.time = per_request(10s);
    auto table = launch_one(seat, with_sandbox(mode));
    const Reply reply = table->ask(0, "attack\n", one_line_framer());
    table->close();
    std::map<std::string, std::string> report;
    std::istringstream in(reply.ok() ? reply.first_line() : "");
    for (std::string item; in >> item;)
        if (const auto eq = item.find('='); eq != std::string::npos) report[item.substr(0, eq)] = item.substr(eq + 1);
    return report;
}

}  // namespace

TEST_CASE("a confined bot cannot reach the kernel's larger surfaces: namespaces, mounts, io_uring, keyrings, perf, bpf") {
    const auto open = kernel_report(SandboxMode::none);
    REQUIRE(open.size() >= 12);
    int reached = 0;
    for (const auto& [surface, result] : open) reached += result == "ok";
    if (host_root()) CHECK(reached >= 8);  // without the filter, as root: nearly all of them
    for (const SandboxMode mode : confined_modes(KERNEL_ATTACK_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const auto confined = kernel_report(mode);
        REQUIRE(confined.size() == open.size());
        for (const auto& entry : confined) {
            const std::string surface = entry.first;
            CAPTURE(surface);
            if (surface == "ptrace") continue;  // its own child: allowed, as in Docker's profile
            CHECK(entry.second != "ok");
        }
        CHECK(confined.at("userns") == "EPERM");
        CHECK(confined.at("keyring") == "EPERM");
        CHECK(confined.at("clone3ns") == "ENOSYS");  // glibc then falls back to clone, whose flags are checked
    }
}

TEST_CASE("a bot under a 0700 folder of root's home, started as 'python3 bot.py' through PATH, plays and writes its folder") {
    const char* home = std::getenv("HOME");
    if (home == nullptr || !plan_sandbox(SandboxMode::automatic).namespaces) {
        MESSAGE("skipped: needs the arbiter's own namespaces and a HOME");
        return;
    }
    const auto python = find_in_path("python3");
    if (!python) {
        MESSAGE("skipped: no python3 on PATH");
        return;
    }
    MESSAGE("python3 is " << python->string());  // a pyenv shim where pyenv comes first on PATH
    const auto closed = std::filesystem::path(home) / ("arbiter-test-closed-" + std::to_string(::getpid()));
    const auto folder = closed / "bots" / "py";
    std::filesystem::create_directories(folder);
    ::chmod(closed.c_str(), 0700);
    std::ofstream(folder / "bot.py") << "import sys\n"
                                        "for line in sys.stdin:\n"
                                        "    with open('seen.txt', 'a') as f:\n"
                                        "        f.write(line)\n"
                                        "    print('ok ' + line.strip(), flush=True)\n";
    SeatLaunch seat;
    seat.info = SeatInfo{0, "py", "py"};
    seat.bot = parse_bot_spec("name=py cmd=\"python3 bot.py\" dir=" + quote_word(folder.string()));
    seat.time = per_request(20s);
    {
        auto table = launch_one(seat, with_sandbox(SandboxMode::automatic));
        const Reply reply = table->ask(0, "hello\n", one_line_framer());
        CHECK(reply.ok());
        if (reply.ok()) CHECK(reply.first_line() == "ok hello");
        table->close();
        CHECK(table->status(0) == SeatStatus::ok);
    }
    CHECK(read_file(folder / "seen.txt") == "hello\n");
    struct stat written {};
    REQUIRE(::stat((folder / "seen.txt").c_str(), &written) == 0);
    CHECK(written.st_uid == 0);  // stored as the folder's owner, not as the seat's id
    std::filesystem::remove_all(closed);
}

TEST_CASE("--freeze stops every process of a seat between its turns, also a chain that keeps re-forking") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-forker");
        ::chmod(own.c_str(), 0777);
        const auto counter = own / "count";
        // Whether the count moves within `window`. A moving count answers at once; a still one is
        // watched the whole window, long enough that a loaded machine (a sanitizer build, the
        // suite running beside) does not pass for a frozen seat.
        auto advances = [&](bool freeze, std::chrono::milliseconds window) {
            TableOptions options;
            options.freeze_idle = freeze;
            // Writes reach the folder at once (not at the seat's end): the test reads the count live.
            options.limits.disk_mib = 0;
            Attacker attacker(mode, options, own);
            if (attacker.table->limit_mechanism().rfind("cgroup", 0) != 0) return std::optional<bool>();
            CHECK(attacker("forker " + counter.string()) == "forking");
            std::this_thread::sleep_for(100ms);
            const std::string before = read_file(counter);
            for (auto waited = 0ms; waited < window; waited += 50ms) {
                std::this_thread::sleep_for(50ms);
                if (read_file(counter) != before) return std::optional<bool>(true);
            }
            const std::string count = before.substr(0, before.find('\n'));
            MESSAGE("count stayed at " << count << " for " << window.count() << " ms; the seat is "
                                       << std::string(to_string(attacker.table->status(0))));
            CHECK(attacker("id").rfind("uid ", 0) == 0);  // the bot itself still answers
            return std::optional<bool>(false);
        };
        const auto running = advances(false, 10s);
        if (!running) {
            MESSAGE("skipped: no cgroup here");
            continue;
        }
        CHECK(*running);                   // the chain runs while the bot is not asked ...
        CHECK_FALSE(*advances(true, 1s));  // ... and stops with the seat under --freeze
    }
}

TEST_CASE("a child killed for memory makes its seat killed (memory), though the main process plays on") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        TableOptions options;
        options.limits.memory_mib = 64;
        Attacker attacker(mode, options);
        if (attacker.table->limit_mechanism().rfind("cgroup", 0) != 0) {
            MESSAGE("skipped: no memory cgroup here");
            continue;
        }
        CHECK(attacker("oom-child 200") == "child killed by signal 9");
        CHECK(attacker("id").rfind("uid ", 0) == 0);  // the main process answers on
        attacker.table->close();
        CHECK(attacker.table->status(0) == SeatStatus::killed);
        CHECK(attacker.table->seat_end(0).limit == "memory");
    }
}

TEST_CASE("a confined bot cannot leave a set-user-ID program in its folder (stored as the folder's owner)") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-setuid");
        ::chmod(own.c_str(), 0777);
        const std::string answer = Attacker(mode, {}, own)("setuid " + (own / "rootshell").string());
        struct stat planted {};
        REQUIRE(::stat((own / "rootshell").c_str(), &planted) == 0);
        if (mode == SandboxMode::none) {
            CHECK(answer == "set-id bit set");  // without the filter it works
            CHECK((planted.st_mode & S_ISUID) != 0);
        } else {
            CHECK(answer == "cannot set: Operation not permitted");
            CHECK((planted.st_mode & (S_ISUID | S_ISGID)) == 0);
        }
    }
}

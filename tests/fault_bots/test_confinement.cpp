// Bots are confined from each other and from the machine (core/confine/sandbox.hpp): hostile bots try
// to forge another bot's reply, read its environment, kill it, reach the network, write outside
// their folder and leave a daemon behind, under bubblewrap and, for contrast, without it (where
// the attacks on other bots succeed, so these tests can fail).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/confine/bot_limits.hpp"
#include "core/confine/bot_spawn.hpp"
#include "core/confine/seat_users.hpp"
#include "core/confine/user_namespace.hpp"
#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;

namespace {

SeatLaunch hostile_seat(const std::string& label, std::vector<std::string> flags) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, label, label};
    launch.bot = parse_bot_spec("name=" + label + " cmd=" + quote_word(HOSTILE_BOT_PATH));
    for (auto& f : flags) launch.bot.argv.push_back(std::move(f));
    launch.time = per_request(5s);
    return launch;
}

// The processes of a confined bot that made `own` processes: bwrap adds itself and an init.
int processes_under(SandboxMode mode, int own) { return own + (mode == SandboxMode::bwrap ? 2 : 0); }

// A marker unique to this test run, carried on the command lines of its bots.
std::string marker(const std::string& what) { return "confinement-" + std::to_string(::getpid()) + "-" + what; }

// Live processes (zombies have no command line) whose command line holds `text`.
int processes_with(const std::string& text) {
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmdline = read_file(entry.path() / "cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find(text) != std::string::npos) ++n;
    }
    return n;
}

std::string ask(ProcessTable& table, int seat, const std::string& line) {
    const Reply reply = table.ask(seat, line + "\n", one_line_framer());
    return reply.ok() ? reply.first_line() : "failed: " + std::string(to_string(reply.status));
}

// Victim (seat 0) and attacker (seat 1); returns the attacker's report and the victim's reply.
std::pair<std::string, std::string> attack(SandboxMode mode, const std::string& tag, std::vector<std::string> flags,
                                           std::map<std::string, std::string> victim_env = {},
                                           bool seat_users = false) {
    SeatLaunch victim = hostile_seat("victim", {"--tag", tag});
    victim.bot.env = std::move(victim_env);
    flags.insert(flags.end(), {"--target", tag});
    std::vector<SeatLaunch> seats{victim, hostile_seat("attacker", flags)};
    TableOptions options = with_sandbox(mode);
    options.limits.seat_users = seat_users;
    auto table = ProcessTable::launch(std::move(seats), options);
    REQUIRE(ask(*table, 0, "warm-up") == "echo warm-up");
    const std::string report = ask(*table, 1, "attack");
    const std::string victim_reply = ask(*table, 0, "still there");
    table->close();
    return {report, victim_reply};
}

// A TCP port listening on the machine's loopback, for bots to try to reach.
struct HostListener {
    HostListener() {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(fd, 4) == 0);
        socklen_t length = sizeof address;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        port = ntohs(address.sin_port);
    }
    ~HostListener() { ::close(fd); }
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int port = 0;
};

}  // namespace

namespace {

const std::map<std::string, std::string> kVictimSecret{{"SEAT_SECRET", "victim-secret-42"}};

// Forging another bot's reply through /proc, reading its environment and signalling it all fail.
void check_bots_apart(SandboxMode mode, bool seat_users, const std::string& tag) {
    const auto [report, victim] = attack(mode, marker("forge-" + tag), {"--forge"}, {}, seat_users);
    CHECK(report == "forged 0");
    CHECK(victim == "echo still there");
    CHECK(attack(mode, marker("env-" + tag), {"--environ", "SEAT_SECRET"}, kVictimSecret, seat_users).first ==
          "environ none");
    const auto [signalled, alive] = attack(mode, marker("kill-" + tag), {"--signal"}, {}, seat_users);
    CHECK(signalled == "signalled 0");
    CHECK(alive == "echo still there");
}

}  // namespace

TEST_CASE("a confined bot cannot forge another bot's reply through /proc, read its environment or kill it") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        check_bots_apart(mode, false, to_string(mode));
    }
    // Without confinement the attacks are real: the forged line reaches the arbiter as the reply.
    const auto [open_report, open_victim] = attack(SandboxMode::none, marker("forge-open"), {"--forge"});
    CHECK(open_report == "forged 1");
    CHECK(open_victim == "FORGED");
    CHECK(attack(SandboxMode::none, marker("env-open"), {"--environ", "SEAT_SECRET"}, kVictimSecret).first ==
          "environ victim-secret-42");
}

// --seat-users: each seat runs as a user id of its own (core/confine/seat_users.hpp), which keeps bots
// apart even without the sandbox, and away from what only root may read.
TEST_CASE("with seat users, bots without the sandbox cannot forge, read or signal each other") {
    if (!host_root()) {
        MESSAGE("skipped: seat users need a root arbiter");
        return;
    }
    if (!reachable_by_others(HOSTILE_BOT_PATH)) {
        // Without the sandbox nothing shows a seat user a program under a folder it may not enter.
        MESSAGE("skipped: a seat user cannot reach " << std::string(HOSTILE_BOT_PATH));
        return;
    }
    check_bots_apart(SandboxMode::none, true, "users");
}

TEST_CASE("with seat users every seat has its own user id, with and without the sandbox") {
    if (!host_root()) {
        MESSAGE("skipped: seat users need a root arbiter");
        return;
    }
    std::vector<SandboxMode> modes = confined_modes(HOSTILE_BOT_PATH);
    modes.push_back(SandboxMode::none);
    for (const SandboxMode mode : modes) {
        INFO("sandbox " << to_string(mode));
        std::vector<SeatLaunch> seats;
        for (const std::string label : {"a", "b"}) {
            SeatLaunch seat = hostile_seat(label, {});
            seat.info.bot = label == "a" ? 0 : 1;
            seat.bot = parse_bot_spec("name=" + label +
                                      " cmd=\"/bin/sh -c 'while read l; do echo $(id -u) "
                                      "$(cat /etc/shadow >/dev/null 2>&1 && echo read || echo denied); done'\"");
            seats.push_back(seat);
        }
        TableOptions options = with_sandbox(mode);
        options.limits.seat_users = true;
        auto table = ProcessTable::launch(std::move(seats), options);
        const std::string a = ask(*table, 0, "who"), b = ask(*table, 1, "who");
        table->close();
        INFO(a << " / " << b);
        const auto uid_of = [](const std::string& reply) { return std::stoll(reply.substr(0, reply.find(' '))); };
        CHECK(uid_of(a) >= kSeatUidBase);
        CHECK(uid_of(b) >= kSeatUidBase);
        CHECK(uid_of(a) != uid_of(b));
        if (std::filesystem::exists("/etc/shadow")) CHECK(a.ends_with(" denied"));
    }
}

TEST_CASE("a confined pipe bot has no network: it cannot reach a port on the host") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const HostListener listener;
        const std::string port = std::to_string(listener.port);
        CHECK(attack(mode, marker("net"), {"--connect", port}).first.rfind("not connected", 0) == 0);
        CHECK(attack(SandboxMode::none, marker("net-open"), {"--connect", port}).first == "connected");
    }
}

TEST_CASE("a confined TCP bot reaches the arbiter on its own loopback and nothing else") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const HostListener listener;
        const std::string port = std::to_string(listener.port);
        auto attempt = [&](SandboxMode mode) {
            SeatLaunch seat = hostile_seat("tcp", {"--tcp", "--connect", port});
            seat.channel = ChannelKind::tcp_client;
            auto table = launch_one(seat, with_sandbox(mode));
            return ask(*table, 0, "attack");  // answered over its TCP connection to the arbiter
        };
        // A port of the machine (or of another seat, which has a loopback of its own) is out of reach.
        CHECK(attempt(mode).rfind("not connected", 0) == 0);
        CHECK(attempt(SandboxMode::none) == "connected");
    }
}

TEST_CASE("a confined bot writes only its own folder and a private /tmp") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("confined-own");
        ::chmod(own.c_str(), 0777);  // under bwrap a root arbiter's seat user writes only where others may
        const auto other = scratch_dir("confined-other");
        auto run = [&](const std::filesystem::path& target) {
            SeatLaunch seat = hostile_seat("writer", {"--write", target.string()});
            seat.bot.dir = own;
            auto table = launch_one(seat, with_sandbox(mode));
            return ask(*table, 0, "write");
        };
        CHECK(run(own / "mine.txt") == "wrote " + (own / "mine.txt").string());
        CHECK(std::filesystem::exists(own / "mine.txt"));
        CHECK(run(other / "theirs.txt").rfind("cannot write", 0) == 0);
        CHECK_FALSE(std::filesystem::exists(other / "theirs.txt"));
        // Writable on the machine, outside the bot's folder and /tmp: read-only in the sandbox.
        const auto outside = std::filesystem::path("/var/tmp") / (marker("outside") + ".txt");
        const std::string refused = run(outside);  // not in the view at all, or read-only
        CHECK((refused.find("No such file or directory") != std::string::npos ||
               refused.find("Read-only file system") != std::string::npos));
        CHECK_FALSE(std::filesystem::exists(outside));
        std::filesystem::remove(outside);
        const std::string in_tmp = "/tmp/" + marker("tmp") + ".txt";
        CHECK(run(in_tmp) == "wrote " + in_tmp);         // its private /tmp ...
        CHECK_FALSE(std::filesystem::exists(in_tmp));     // ... is not the machine's
    }
}

namespace {

// The first reply of a confined bot whose command names `program` (a copy of the hostile bot).
std::string hello_from(SandboxMode mode, const std::filesystem::path& program) {
    SeatLaunch seat = hostile_seat("named", {});
    seat.bot = parse_bot_spec("name=named cmd=" + quote_word(program.string()));
    auto table = launch_one(seat, with_sandbox(mode));
    const std::string reply = ask(*table, 0, "hello");
    table->close();
    return reply;
}

}  // namespace

TEST_CASE("a confined bot started through a symbolic link into another /tmp folder runs") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        // The private /tmp shows the folders the command names; the link's target is one of them.
        const auto real = scratch_dir("confined-real");
        const auto links = scratch_dir("confined-links");
        std::filesystem::copy_file(HOSTILE_BOT_PATH, real / "bot");
        std::filesystem::create_symlink(real / "bot", links / "bot");
        CHECK(hello_from(mode, links / "bot") == "echo hello");
    }
}

TEST_CASE("a confined bot named by a path through another folder of /tmp ('bin/../bots/bot') runs") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const auto root = scratch_dir("confined-dotdot");
        std::filesystem::create_directories(root / "bin");
        std::filesystem::create_directories(root / "bots");
        std::filesystem::copy_file(HOSTILE_BOT_PATH, root / "bots" / "bot");
        CHECK(hello_from(mode, root / "bin" / ".." / "bots" / "bot") == "echo hello");
    }
}

TEST_CASE("a bot named by a path relative to the arbiter's folder, without a folder of its own, runs under every sandbox") {
    std::vector<SandboxMode> all = confined_modes(HOSTILE_BOT_PATH);
    all.push_back(SandboxMode::none);
    for (const SandboxMode mode : all) {
        INFO("sandbox " << to_string(mode));
        // The view's working folder is an empty one of the arbiter's name: the program is found
        // by its resolved path, not relative to it.
        const auto root = scratch_dir("confined-relative");
        std::filesystem::copy_file(HOSTILE_BOT_PATH, root / "bot");
        const auto relative = std::filesystem::relative(root / "bot");
        REQUIRE(relative.is_relative());
        CHECK(hello_from(mode, relative) == "echo hello");
    }
}

TEST_CASE("a confined bot has no capabilities, sees its own processes only, and has the usual devices") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        SeatLaunch seat = hostile_seat("looker", {});
        // One line per request: effective capabilities, no_new_privs, processes visible in
        // /proc, then whether /dev/null, /dev/urandom and /dev/shm work.
        seat.bot = parse_bot_spec(
            "name=looker cmd=\"/bin/sh -c 'while read l; do "
            "echo $(sed -n \\\"s/^CapEff:[[:space:]]*//p\\\" /proc/self/status) "
            "$(sed -n \\\"s/^NoNewPrivs:[[:space:]]*//p\\\" /proc/self/status) "
            "$(ls /proc | grep -c \\\"^[0-9]\\\") "
            "$(echo x >/dev/null && head -c 4 /dev/urandom | wc -c) "
            "$(touch /dev/shm/x && echo shm); done'\"");
        auto table = launch_one(seat, with_sandbox(mode));
        const std::string seen = ask(*table, 0, "look");
        table->close();
        // The shell, and during the $(...) the commands it runs: a handful, not the machine's.
        std::istringstream in(seen);
        std::string caps, no_new_privs, devices, shm;
        int processes = 0;
        in >> caps >> no_new_privs >> processes >> devices >> shm;
        CHECK(caps == "0000000000000000");
        if (mode == SandboxMode::namespaces) CHECK(no_new_privs == "1");
        CHECK(processes >= 1);
        CHECK(processes <= 6);
        CHECK(devices == "4");
        CHECK(shm == "shm");
    }
}

TEST_CASE("a setsid daemon forked by a bot does not outlive its match") {
    std::vector<SandboxMode> modes = confined_modes(HOSTILE_BOT_PATH);
    modes.push_back(SandboxMode::none);
    for (const SandboxMode mode : modes) {
        const std::string tag = marker("daemon-" + to_string(mode));
        auto table = launch_one(hostile_seat("daemon", {"--daemon", "--tag", tag}), with_sandbox(mode));
        if (mode == SandboxMode::none && table->limit_mechanism().rfind("rlimit", 0) == 0) {
            MESSAGE("skipped without the sandbox: no cgroup here to find a setsid daemon by");
            table->close();
            continue;
        }
        CAPTURE(mode);
        REQUIRE(ask(*table, 0, "fork") == "daemon started");
        std::this_thread::sleep_for(50ms);
        // The bot and its daemon, and under bwrap its two bwrap processes (outer and init).
        CHECK(processes_with(tag) == processes_under(mode, 2));
        table->close();
        CHECK(processes_with(tag) == 0);
        CHECK(::waitpid(-1, nullptr, WNOHANG) <= 0);  // nothing left unreaped either
    }
}

namespace {

// A stand-in arbiter (a forked copy of this test) whose bot under `mode` left a setsid daemon;
// returns once the daemon runs. The caller SIGKILLs it without any cleanup.
pid_t arbiter_with_daemon(SandboxMode mode, const std::string& tag) {
    prepare_arbiter_process();  // orphans come to this process, which reaps them
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    const pid_t arbiter = ::fork();
    REQUIRE(arbiter >= 0);
    if (arbiter == 0) {
        auto table = launch_one(hostile_seat("daemon", {"--daemon", "--tag", tag}), with_sandbox(mode));
        (void)ask(*table, 0, "fork");
        (void)::write(ready[1], "r", 1);
        for (;;) ::pause();
    }
    char byte = 0;
    REQUIRE(::read(ready[0], &byte, 1) == 1);
    ::close(ready[0]), ::close(ready[1]);
    return arbiter;
}

// Live processes holding `tag` once they had up to two seconds to go (reaping what comes to us).
int left_after_waiting(const std::string& tag) {
    int left = -1;
    for (int i = 0; i < 400 && left != 0; ++i) {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        left = processes_with(tag);
        if (left != 0) std::this_thread::sleep_for(5ms);
    }
    return left;
}

}  // namespace

TEST_CASE("every process of a confined bot dies with the arbiter, daemons included") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        const std::string tag = marker("arbiter-death-" + to_string(mode));
        const pid_t arbiter = arbiter_with_daemon(mode, tag);
        std::this_thread::sleep_for(50ms);
        CHECK(processes_with(tag) == processes_under(mode, 2));  // the bot and its daemon (and bwrap's two)
        ::kill(arbiter, SIGKILL);
        ::waitpid(arbiter, nullptr, 0);
        CHECK(left_after_waiting(tag) == 0);
    }
}

TEST_CASE("a confined bot's crash, memory kill and CPU time are reported as without the sandbox") {
    for (const SandboxMode mode : confined_modes(HOSTILE_BOT_PATH)) {
        INFO("sandbox " << to_string(mode));
        {
            TableOptions options = with_sandbox(mode);
            options.transcript_path = scratch_dir("confined-crash") / "transcript";
            auto table = launch_one(fault_seat("crash", {"--crash-after", "1"}, per_request(5s)), options);
            CHECK(table->ask(0, "1\n", one_line_framer()).ok());
            const Reply reply = table->ask(0, "2\n", one_line_framer());
            CHECK(reply.status == ReplyStatus::closed);
            table->close();
            CHECK(table->status(0) == SeatStatus::crashed);
            // abort(): SIGABRT, the program's own end, not the sandbox's exit code 128 + N (and not
            // what the kernel makes of an abort() in a namespace's first process).
            CHECK(read_file(options.transcript_path).find("killed by signal 6") != std::string::npos);
        }
        {
            // Exit code 134 is what a sandbox's init once gave for SIGABRT: it stays an exit code.
            TableOptions options = with_sandbox(mode);
            options.transcript_path = scratch_dir("confined-exit-134") / "transcript";
            // A shell, not the fault bot: a sanitizer's leak check at the fault bot's exit would
            // change its code in a sanitizer build.
            SeatLaunch seat = fault_seat("exit134", {}, per_request(5s));
            seat.bot = parse_bot_spec("name=exit134 cmd=\"/bin/sh -c 'exit 134'\"");
            auto table = launch_one(seat, options);
            CHECK(table->ask(0, "1\n", one_line_framer()).status == ReplyStatus::closed);
            table->close();
            CHECK(table->status(0) == SeatStatus::crashed);
            const std::string transcript = read_file(options.transcript_path);
            CAPTURE(transcript);
            CHECK(transcript.find("exited with code 134") != std::string::npos);
            CHECK(transcript.find("killed by signal") == std::string::npos);
        }
        {
            TableOptions options = with_sandbox(mode);
            options.limits.memory_mib = 64;
            auto table = launch_one(fault_seat("memory", {"--alloc-mib", "256"}, per_request(5s)), options);
            CHECK(table->ask(0, "eat\n", one_line_framer()).status == ReplyStatus::closed);
            table->close();
            if (table->limit_mechanism().rfind("cgroup", 0) == 0) CHECK(table->status(0) == SeatStatus::killed);
            CHECK(table->usage(0).peak_memory_kib <= 64 * 1024 + 8 * 1024);
        }
        {
            // The CPU clock is the bot program's, not its bwrap process's.
            auto table = launch_one(fault_seat("busy", {"--busy-ms", "200"}, per_request(5s)),
                                    with_sandbox(mode));
            const Reply reply = table->ask(0, "work\n", one_line_framer());
            REQUIRE(reply.ok());
            CHECK(reply.cpu >= 50ms);  // bwrap itself uses next to none
            table->close();
        }
    }
}

TEST_CASE("without the sandbox, what a bot leaves after the arbiter is killed dies when the next arbiter starts") {
    const Limits limits;
    const LimitsPlan plan = plan_limits(limits);
    if (plan.kind == LimitsPlan::Kind::rlimit) {
        MESSAGE("skipped: no cgroup here to find a bot's leftovers by");
        return;
    }
    const std::string tag = marker("orphan-none");
    const pid_t arbiter = arbiter_with_daemon(SandboxMode::none, tag);
    ::kill(arbiter, SIGKILL);
    ::waitpid(arbiter, nullptr, 0);
    // The setsid daemon outlives its arbiter (the bot itself dies of its parent-death signal a
    // moment later). Only shown: an arbiter starting beside this test may sweep it first. Without
    // the sweep's kill, the check below fails.
    MESSAGE("processes left by the killed arbiter: " << processes_with(tag));
    reclaim_orphaned_seats(plan);     // ... until the next arbiter starts
    CHECK(left_after_waiting(tag) == 0);
}

namespace {

// A pid that no process has now: a child's, once reaped.
pid_t free_pid() {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    return child;
}

// A process that sleeps in the cgroup `dir` (made here), as a seat of another arbiter would.
pid_t sleeper_in(const std::filesystem::path& dir) {
    std::filesystem::create_directory(dir);
    const pid_t child = ::fork();
    if (child == 0) {
        ::pause();
        ::_exit(0);
    }
    std::ofstream(dir / "cgroup.procs") << child << "\n";
    return child;
}

bool alive(pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) == 0; }

unsigned long long own_pid_namespace() {
    struct stat st {};
    return ::stat("/proc/self/ns/pid", &st) == 0 ? static_cast<unsigned long long>(st.st_ino) : 0;
}

}  // namespace

// Arbiters in other PID namespaces (containers, the multi-host tests' nodes) share the cgroup
// tree, where their pids are other numbers: a seat cgroup named for a pid of another namespace
// that is free here must not be taken for a dead arbiter's and swept (its bots killed).
TEST_CASE("the sweep of dead arbiters' seat cgroups leaves those of another PID namespace alone") {
    const LimitsPlan plan = plan_limits(Limits{});
    const std::filesystem::path parent = plan.kind == LimitsPlan::Kind::cgroup_v2 ? plan.v2_parent : plan.v1_memory_parent;
    if (plan.kind == LimitsPlan::Kind::rlimit || parent.empty()) {
        MESSAGE("skipped: no cgroup here to sweep");
        return;
    }
    const pid_t owner = free_pid();
    const auto other = parent / fmt::format("arbiter-{}.{}-0-sweep-test", owner, own_pid_namespace() + 1);
    const auto here = parent / fmt::format("arbiter-{}.{}-1-sweep-test", owner, own_pid_namespace());
    const pid_t theirs = sleeper_in(other), ours = sleeper_in(here);
    reclaim_orphaned_seats(plan);
    std::this_thread::sleep_for(50ms);
    // The control: a dead owner of this namespace is swept, its process killed.
    CHECK_FALSE(alive(ours));
    CHECK(alive(theirs));
    CHECK(std::filesystem::exists(other));
    ::kill(theirs, SIGKILL);
    ::waitpid(theirs, nullptr, 0);
    ::rmdir(other.c_str());
    ::rmdir(here.c_str());
}

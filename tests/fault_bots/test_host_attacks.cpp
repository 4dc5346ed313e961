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
#include <fstream>

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

}  // namespace

TEST_CASE("a confined bot never runs as the host's root") {
    if (::geteuid() != 0) {
        MESSAGE("skipped: the arbiter does not run as root");
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

TEST_CASE("a confined bot cannot write kernel settings (core_pattern runs a program as root on a crash)") {
    const std::string setting = "/proc/sys/kernel/core_pattern";
    if (::geteuid() == 0) CHECK(Attacker(SandboxMode::none)("sysctl " + setting) == "wrote setting");
    for (const SandboxMode mode : modes()) {
        INFO("sandbox " << to_string(mode));
        Attacker attacker(mode);
        CHECK(starts(attacker("sysctl " + setting), "cannot write setting"));
        CHECK(starts(attacker("sysctl /proc/sys/vm/drop_caches"), "cannot write setting"));
        CHECK(attacker("read /proc/keys") == "read 0 bytes");
        CHECK(attacker("read /proc/kcore") == "read 0 bytes");
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
    if (::geteuid() == 0) CHECK(starts(open[5], "read "));
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
    std::vector<SandboxMode> all = modes();
    all.push_back(SandboxMode::none);
    for (const SandboxMode mode : all) {
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
    std::vector<SandboxMode> all = modes();
    all.push_back(SandboxMode::none);
    for (const SandboxMode mode : all) {
        INFO("sandbox " << to_string(mode));
        const auto own = scratch_dir("attack-disk");
        ::chmod(own.c_str(), 0777);
        TableOptions bounded;
        bounded.limits.disk_mib = 8;
        TableOptions unbounded;
        unbounded.limits.disk_mib = 0;
        CHECK(Attacker(mode, unbounded, own)("fill " + (own / "big").string() + " 12") == "filled 12 MiB");
        CHECK(starts(Attacker(mode, bounded, own)("fill " + (own / "big").string() + " 12"), "filled 8 MiB: "));
        std::filesystem::remove(own / "big");
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

// What a bot leaves in its folder is hostile input to the arbiter at the next match: a link it
// planted where its command names a file (an argument, the program itself, a script's
// interpreter) must not lead the arbiter to show it another contestant's folder, the match's
// outputs or the host's root, and the write-back of its folder is bounded in links, entries,
// depth, path length and bytes. Each attack is seen to work without the defence (--sandbox none,
// or a path the user gave) and to fail with it, over two matches where it needs two.
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <memory>
#include <thread>

#include "tests/fault_bots/confinement_test_support.hpp"

using namespace std::chrono_literals;
using namespace arb;
using namespace arb::testing;
namespace fs = std::filesystem;

namespace {

// One match of the host attack bot, its command `program args...`, in its folder `dir`.
struct Match : OneLineSeats {
    Match(SandboxMode mode, const fs::path& dir, const std::string& command, TableOptions options = {})
        : OneLineSeats(seats_running(command, {"planter"}, 20s, dir), with_sandbox(mode, std::move(options))) {}
    std::string operator()(const std::string& line) { return ask(0, line); }
};

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// A folder a seat user may write (bwrap under a root arbiter runs as one).
fs::path open_folder(const std::string& name) {
    const fs::path dir = scratch_dir(name);
    ::chmod(dir.c_str(), 0777);
    return dir;
}

std::vector<SandboxMode> modes_and_none() {
    std::vector<SandboxMode> all = confined_modes(HOST_ATTACK_BOT_PATH);
    all.push_back(SandboxMode::none);
    return all;
}

// The answer of one request, or the one line the start failed with.
std::string first_answer(SandboxMode mode, const fs::path& dir, const std::string& command, const std::string& line) {
    try {
        Match match(mode, dir, command);
        return match(line);
    } catch (const UserError& e) {
        return std::string("not started: ") + e.what();
    }
}

int count_entries(const fs::path& folder) {
    int n = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) ++n;
    return n;
}

}  // namespace

TEST_CASE("an argument a bot relinked in an earlier match shows it nothing: not another contestant's folder, the outputs or /") {
    const std::string bot = HOST_ATTACK_BOT_PATH;
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const fs::path own = open_folder("planted-own");
        const fs::path other = open_folder("planted-other");
        const fs::path outputs = open_folder("planted-outputs");
        std::ofstream(other / "strategy.txt") << "ALICE-SECRET-STRATEGY-42\n";
        std::ofstream(own / "data") << "the bot's own data\n";
        // Match 1: the bot replaces the file its command names with a link out of its folder.
        {
            Match match(mode, own, bot + " data");
            CHECK(match("symlink " + other.string() + " " + (own / "data").string()) == "linked");
        }
        // The namespaces sandbox writes back no link that leads out of the folder; bwrap and
        // none let the bot write its folder directly.
        const bool planted = fs::is_symlink(own / "data");
        if (mode == SandboxMode::namespaces) CHECK_FALSE(planted);
        else CHECK(planted);
        // Match 2, with the link in place as any earlier match under bwrap or none leaves it.
        fs::remove(own / "data");
        fs::create_directory_symlink(other, own / "data");
        const std::string secret = first_answer(mode, own, bot + " data", "read " + (own / "data" / "strategy.txt").string());
        // The running match's transcript, through a link to the match's outputs.
        fs::remove(own / "data");
        fs::create_directory_symlink(outputs, own / "data");
        TableOptions with_transcript;
        with_transcript.transcript_path = outputs / "transcript.txt";
        std::string transcript;
        {
            Match match(mode, own, bot + " data", with_transcript);
            transcript = match("read " + (own / "data" / "transcript.txt").string());
        }
        // The host's root: the whole machine, and its /tmp under the bot's /tmp.
        fs::remove(own / "data");
        fs::create_directory_symlink("/", own / "data");
        const std::string root =
            first_answer(mode, own, bot + " data", "read " + (own / "data" / other.relative_path() / "strategy.txt").string());
        if (mode == SandboxMode::none) {  // nothing stops it there
            CHECK(secret == "read 25 bytes");
            CHECK(starts(transcript, "read "));
            CHECK(root == "read 25 bytes");
        } else {
            CHECK(starts(secret, "cannot read"));
            CHECK(starts(transcript, "cannot read"));
            CHECK(starts(root, "cannot read"));
        }
    }
}

TEST_CASE("a program a bot relinked to another contestant's program does not run under its name") {
    for (const SandboxMode mode : modes_and_none()) {
        INFO("sandbox " << to_string(mode));
        const fs::path own = open_folder("relinked-own");
        const fs::path other = open_folder("relinked-other");
        fs::copy_file(HOST_ATTACK_BOT_PATH, other / "bot");  // the other contestant's program
        const std::string theirs = "exe " + (other / "bot").string();
        // The other program runs when the user names it: the target itself is runnable.
        CHECK(first_answer(mode, other, (other / "bot").string(), "exe") == theirs);
        fs::copy_file(HOST_ATTACK_BOT_PATH, own / "bot");
        CHECK(first_answer(mode, own, "./bot", "exe") == "exe " + (own / "bot").string());
        // The bot's program, relinked: the arbiter looks at it only beneath the bot's folder.
        fs::remove(own / "bot");
        fs::create_symlink(other / "bot", own / "bot");
        const std::string relinked = first_answer(mode, own, "./bot", "exe");
        CHECK(relinked == "not started: bot 'planter': its program '" + (own / "bot").string() +
                           "' is a link leading out of its folder, which the arbiter does not follow (a bot may have "
                           "left it there); name the program's own path in cmd=");
        // A link inside the folder is the bot's own business and works.
        fs::remove(own / "bot");
        fs::create_directory(own / "build");
        ::chmod((own / "build").c_str(), 0777);
        fs::copy_file(HOST_ATTACK_BOT_PATH, own / "build" / "bot");
        fs::create_symlink("build/bot", own / "bot");
        CHECK(first_answer(mode, own, "./bot", "exe") == "exe " + (own / "build" / "bot").string());
        // A script in its folder naming the other program as its interpreter.
        fs::remove(own / "bot");
        std::ofstream(own / "bot") << "#!" << (other / "bot").string() << "\n";
        fs::permissions(own / "bot", fs::perms(0755));
        const std::string scripted = first_answer(mode, own, "./bot", "exe");
        if (mode == SandboxMode::none) CHECK(scripted == theirs);  // without a view the kernel runs it
        else CHECK(scripted != theirs);
    }
}

TEST_CASE("a path the user names that would show /, a folder holding the bot's folder or another bot's folder is refused in one line") {
    const auto modes = confined_modes(HOST_ATTACK_BOT_PATH);
    for (const SandboxMode mode : modes) {
        INFO("sandbox " << to_string(mode));
        const fs::path own = open_folder("refused-own");
        const std::string bot = HOST_ATTACK_BOT_PATH;
        auto start_with = [&](const std::string& extra) {
            try {
                SeatLaunch seat;
                seat.info = SeatInfo{0, "refused", "refused"};
                seat.bot = parse_bot_spec("name=refused cmd=" + quote_word(bot) + " dir=" + quote_word(own.string()) + " " + extra);
                seat.time = per_request(10s);
                auto table = launch_one(seat, with_sandbox(mode));
                table->close();
                return std::string("started");
            } catch (const UserError& e) {
                return std::string(e.what());
            }
        };
        CHECK(start_with("") == "started");
        const std::string root = start_with("ro=/");
        CHECK(root == "bot 'refused': ro=/ would show /, which holds its own folder (" + own.string() + ")");
        CHECK(start_with("ro=" + quote_word(own.parent_path().string())).find("which holds its own folder") != std::string::npos);
        // The arbiter's working folder: programs may lie in it, the folder itself is never shown.
        CHECK(start_with("ro=" + quote_word(fs::current_path().string())).find("which holds the arbiter's working folder") !=
              std::string::npos);
    }
}

TEST_CASE("the write-back keeps only links inside the folder and bounds entries, depth, path length and the folder's bytes") {
    if (!plan_sandbox(SandboxMode::automatic).namespaces) {
        MESSAGE("skipped: the write-back is the namespaces sandbox's (root)");
        return;
    }
    const std::string bot = HOST_ATTACK_BOT_PATH;
    const fs::path own = open_folder("write-back-bounds");
    fs::create_directory(own / "zmany");  // after every other name: the count of entries ends in it
    TableOptions options;
    options.limits.folder_mib = 4;
    {
        Match match(SandboxMode::namespaces, own, bot, options);
        CHECK(match("mkdir " + (own / "sub").string()) == "made");
        CHECK(match("write " + (own / "sub" / "x").string()) == "wrote");
        CHECK(match("symlink /etc " + (own / "absolute").string()) == "linked");
        CHECK(match("symlink ../.. " + (own / "sub" / "up").string()) == "linked");
        CHECK(match("symlink sub/x " + (own / "inside").string()) == "linked");
        CHECK(match("symlink ../inside " + (own / "sub" / "back").string()) == "linked");
        CHECK(match("files " + (own / "zmany").string() + " 12000") == "made 12000 files");
        CHECK(match("nest " + own.string() + " 100 2") == "nested 100");
        CHECK(match("nest " + own.string() + " 30 200").rfind("nested ", 0) == 0);
        CHECK(match("fill " + (own / "big").string() + " 6") == "filled 6 MiB");
        // Nothing reaches the folder while the match runs.
        CHECK_FALSE(fs::exists(own / "sub"));
    }
    CHECK(fs::exists(own / "sub" / "x"));
    CHECK_FALSE(fs::is_symlink(own / "absolute"));
    CHECK_FALSE(fs::is_symlink(own / "sub" / "up"));
    CHECK(fs::read_symlink(own / "inside") == "sub/x");
    CHECK(fs::read_symlink(own / "sub" / "back") == "../inside");
    CHECK(count_entries(own) <= 10000);
    int depth = 0;
    for (fs::path p = own / "dd"; fs::is_directory(p); p /= "dd") ++depth;
    CHECK(depth == 64);
    for (const auto& entry : fs::recursive_directory_iterator(own))
        CHECK(entry.path().string().size() - own.string().size() <= 1024 + 1);
    CHECK_FALSE(fs::exists(own / "big"));  // 6 MiB past a folder of 4
}

TEST_CASE("a bot that leaves 60,000 files and exits charges no other seat for their write-back") {
    if (!plan_sandbox(SandboxMode::automatic).namespaces) {
        MESSAGE("skipped: the write-back is the namespaces sandbox's (root)");
        return;
    }
    const fs::path own = open_folder("stall-own");
    fs::create_directory(own / "many");
    std::vector<SeatLaunch> seats(2);
    seats[0].info = SeatInfo{0, "leaver", "leaver"};
    seats[0].bot = parse_bot_spec("name=leaver cmd=" + quote_word(HOST_ATTACK_BOT_PATH) + " dir=" + quote_word(own.string()));
    seats[0].time = per_request(60s);
    seats[1] = fault_seat("thinker", {"--late", "1500"}, per_request(20s));
    TableOptions options = with_sandbox(SandboxMode::namespaces);
    auto table = ProcessTable::launch(std::move(seats), options);
    REQUIRE(table->ask(0, "files " + (own / "many").string() + " 60000\n", one_line_framer()).first_line() ==
            "made 60000 files");
    // It exits while the other seat thinks (1.5 s): its files are then the arbiter's to write back.
    REQUIRE(table->ask(0, "exit-after 300\n", one_line_framer()).first_line() == "exiting");
    const Reply thought = table->ask(1, "think\n", one_line_framer());
    REQUIRE(thought.ok());
    const double charged = std::chrono::duration<double>(thought.wall).count();
    INFO("the thinking seat was charged " << charged << " s for 1.5 s of its own");
    CHECK(charged < 1.9);
    CHECK(count_entries(own / "many") == 0);  // nothing written back while the match runs
    table->close();
    CHECK(count_entries(own / "many") == 10000 - 1);  // after it, up to the bound (the folder itself is one entry)
}

TEST_CASE("a program that became a FIFO in the bot's folder does not hold the arbiter at the next start") {
    // Another match of the same bot may swap its program for a FIFO after the check that it is a
    // file: reading its #! line must not wait for a writer that never comes.
    const fs::path own = open_folder("fifo-own");
    REQUIRE(::mkfifo((own / "bot").c_str(), 0755) == 0);
    ExposureRequest request;
    request.bot_name = "fifo";
    request.executable = own / "bot";
    request.argv = {"./bot"};
    request.dir = own;
    auto done = std::make_shared<std::promise<std::size_t>>();
    auto exposed = done->get_future();
    std::thread([request, done] { done->set_value(exposed_paths(request).read_only.size()); }).detach();
    REQUIRE(exposed.wait_for(5s) == std::future_status::ready);  // it never returned before
    CHECK(exposed.get() == 0);
}

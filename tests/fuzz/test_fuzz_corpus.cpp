// Every checked-in seed and regression input of every fuzz target, replayed in the normal
// build: each must end normally or with a one-line UserError. A regression input with a
// companion <input>.expect file must end with a UserError containing that file's text.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/user_error.hpp"
#include "tests/fuzz/fuzz_target.hpp"

namespace arb::fuzz {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

// What the target made of the input: "" for a normal end, else the error (or the problem).
std::string outcome(TargetFunction target, const std::string& data) {
    try {
        target(data);
        return "";
    } catch (const UserError& e) {
        if (!is_one_line(e.what())) return std::string("error of more than one line: ") + e.what();
        return std::string("error: ") + e.what();
    } catch (const std::exception& e) {
        return std::string("crash: exception other than UserError: ") + e.what();
    }
}

int replay(const std::string& name) {
    REQUIRE(targets().contains(name));
    const TargetFunction target = targets().at(name);
    int inputs = 0;
    for (const char* kind : {"seeds", "regressions"}) {
        const fs::path dir = fs::path(ARBITER_FUZZ_DIR) / kind / name;
        if (!fs::is_directory(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.path().extension() == ".expect") continue;
            ++inputs;
            INFO(entry.path().string());
            const std::string got = outcome(target, read_file(entry.path()));
            CHECK(got.find("crash:") == std::string::npos);
            CHECK(got.find("more than one line") == std::string::npos);
            const fs::path expect = entry.path().string() + ".expect";
            if (fs::exists(expect)) {
                const std::string wanted = trimmed(read_file(expect));
                INFO("expected an error containing: " << wanted);
                CHECK(got.starts_with("error: "));
                CHECK(got.find(wanted) != std::string::npos);
            }
        }
    }
    return inputs;
}

}  // namespace

TEST_CASE("every fuzz target has seeds") {
    for (const auto& [target_name, target] : targets()) {
        const std::string& name = target_name;  // INFO's lambda cannot name a structured binding (clang 14)
        INFO(name);
        CHECK(fs::is_directory(fs::path(ARBITER_FUZZ_DIR) / "seeds" / name));
    }
}

// One case per target, so ctest runs them in parallel.
#define REPLAY_CASE(name) \
    TEST_CASE("fuzz seeds and regressions replay cleanly: " #name) { CHECK(replay(#name) > 0); }
REPLAY_CASE(bot_spec)
REPLAY_CASE(match_record)
REPLAY_CASE(match_job)
REPLAY_CASE(job_result)
REPLAY_CASE(tournament_config)
REPLAY_CASE(pgn)
REPLAY_CASE(ants_map)
REPLAY_CASE(ants_replay)
REPLAY_CASE(samurai_log)
REPLAY_CASE(smartdog_map)
REPLAY_CASE(smartdog_transcript)
REPLAY_CASE(planowanie_log)
REPLAY_CASE(replies_planowanie)
REPLAY_CASE(replies_ants)
REPLAY_CASE(replies_samurai)
REPLAY_CASE(replies_smartdog)
REPLAY_CASE(replies_koehandel)
REPLAY_CASE(view_match)
REPLAY_CASE(match_transcript)

}  // namespace arb::fuzz

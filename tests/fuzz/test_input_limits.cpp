// The limits on outside input: each refused with one clear line naming the limit, and every
// real file we have (original maps, replays, fields, logs, configs) within them.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "arbiter/tournament/tournament_config.hpp"
#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/ants/ants_map.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/samurai/samurai_replay.hpp"
#include "tests/test_scratch.hpp"

namespace arb {
namespace {

namespace fs = std::filesystem;
const fs::path kShared = fs::path(ARBITER_SHARED_DIR) / "data";

template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

std::string nested(int depth) { return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']'); }

TEST_CASE("an Ants map of 10^9 rows is refused before anything is allocated") {
    const std::string text = "rows 1000000000\ncols 1000\nplayers 2\nm " + std::string(1000, '.') + "\n";
    CHECK(error_of([&] { ants::parse_map(text, "big.map"); }) == "big.map line 1: 1000000000 rows, must be from 1 to 1000");
    CHECK(error_of([&] { ants::parse_map("rows 10\ncols 0\n", "z.map"); }) == "z.map line 2: 0 cols, must be from 1 to 1000");
    CHECK(error_of([&] { ants::parse_map("rows 10\ncols 1001\n", "w.map"); }) == "w.map line 2: 1001 cols, must be from 1 to 1000");
}

TEST_CASE("an Ants replay's radius of 10^9 is refused") {
    const nlohmann::json replay = parse_json_text(
        R"({"players":2,"viewradius2":1000000000,"map":{"rows":2,"cols":2,"data":["..",".."]},
            "hills":[],"ants":[],"food":[],"scores":[[1],[1]],"hive_history":[[0],[0]]})",
        "r.json");
    CHECK(error_of([&] { ants::parse_recorded_game(replay, "r.json"); }) ==
          "r.json: 'viewradius2' must be an integer from 0 to 1000000, not 1000000000");
}

TEST_CASE("JSON from outside nests at most 64 levels") {
    CHECK(parse_json_text(nested(kMaxJsonDepth), "ok.json").is_array());
    CHECK(error_of([&] { parse_json_text(nested(kMaxJsonDepth + 1), "deep.json"); }) ==
          "deep.json: JSON nested deeper than 64 levels");
    CHECK(error_of([&] { parse_json_text("{\"a\":", "cut.json"); }).starts_with("cut.json: not valid JSON: "));
}

TEST_CASE("a 60 KB deeply nested tournament config is one error, at once") {
    const std::string text = "{\"name\":" + nested(30000) + "}";
    CHECK(error_of([&] { tournament::parse_tournament_config(text, "nest.json"); }) ==
          "nest.json: not valid JSON: line 1: nested deeper than 64 levels");
}

TEST_CASE("a file over a reader's size limit is refused naming both sizes") {
    const fs::path file = arb::testing::scratch_root() / "limit.txt";
    std::ofstream(file) << std::string(100, 'x');
    CHECK(read_text_file(file, 100).size() == 100);
    CHECK(error_of([&] { read_text_file(file, 99); }) == file.string() + ": 100 bytes, at most 99");
    fs::remove(file);
    CHECK(error_of([&] { read_text_file(file, 99); }) == file.string() + ": cannot read: No such file or directory");
}

TEST_CASE("every original map, replay, field and log is within the limits") {
    int files = 0;
    for (const auto& e : fs::directory_iterator(kShared / "ants" / "maps")) {
        INFO(e.path().string());
        CHECK_NOTHROW(ants::load_map_file(e.path().string()));
        ++files;
    }
    for (const auto& e : fs::directory_iterator(kShared / "ants" / "replays")) {
        if (!e.is_regular_file()) continue;
        INFO(e.path().string());
        CHECK_NOTHROW(ants::load_recorded_game(e.path()));
        ++files;
    }
    for (const char* folder : {"fields", "logs"}) {
        for (const auto& e : fs::directory_iterator(kShared / "samurai" / folder)) {
            INFO(e.path().string());
            CHECK_NOTHROW(samurai::read_game_log(e.path()));
            ++files;
        }
    }
    for (const auto& e : fs::directory_iterator(fs::path(ARBITER_SOURCE_DIR) / "configs")) {
        INFO(e.path().string());
        CHECK_NOTHROW(tournament::read_tournament_config(e.path()));
        ++files;
    }
    CHECK(files > 80);
}

}  // namespace
}  // namespace arb

// arbiter view's loader and page: which game a file is, the record's replay found by its folder,
// one-line errors for anything else, and a page that nothing in a bot's name can break out of.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/json_text.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "tests/test_scratch.hpp"

namespace fs = std::filesystem;
using arb::view::load_match_view;

namespace {

const fs::path kData = fs::path(ARBITER_SHARED_DIR) / "data";

fs::path scratch(const std::string& name) {
    const fs::path dir = arb::testing::fresh_scratch("view-" + name);
    return dir;
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string error_of(const fs::path& input) {
    try {
        load_match_view(input);
    } catch (const arb::UserError& e) {
        return e.what();
    }
    return "";
}

const fs::path kAntsReplay = kData / "ants/replays/maze_02p_02__HunterBot_vs_GreedyBot__seed42__rank_stabilized.replay.json";
const fs::path kSamuraiLog = kData / "samurai/logs/sample_simple_vs_simple.dighere";
const fs::path kTranscript = kData / "smartdog/transcripts/simple-1_2p.txt";

}  // namespace

TEST_CASE("view: the original engines' files are recognised by their content") {
    const auto ants = load_match_view(kAntsReplay);
    CHECK(ants.game == "ants");
    CHECK(ants.data["replay"]["score"] == nlohmann::json::array({0, 3}));
    CHECK(ants.data["record"].is_null());

    const auto samurai = load_match_view(kSamuraiLog);
    CHECK(samurai.game == "samurai");
    const auto& game = samurai.data["replay"]["games"].at(0);
    // One state before the first step and one after each: the engine replays every logged plan,
    // and the scores it reaches are the log's.
    const nlohmann::json log = nlohmann::json::parse(std::ifstream(kSamuraiLog));
    REQUIRE(game["states"].size() == log["plays"].size() + 1);
    CHECK(game["states"].back()["scores"] == log["plays"].back()["scores"]);
    CHECK(game["states"].front()["holes"].size() == log["field"]["holes"].size());
}

TEST_CASE("view: a record finds its replay by name in its own folder, after the folder moved") {
    const fs::path dir = scratch("moved");
    fs::copy_file(kAntsReplay, dir / "replay.json");
    nlohmann::json record = {{"game", "ants"}, {"seed", 3}, {"replay_path", "/gone/elsewhere/replay.json"},
                             {"participants", nlohmann::json::array()}, {"pairs", nlohmann::json::array()}};
    write(dir / "record.json", record.dump());
    const auto view = load_match_view(dir);
    CHECK(view.game == "ants");
    CHECK(view.data["record"]["seed"] == 3);
    CHECK(view.data["title"] == "ants, seed 3");
    CHECK(arb::view::default_page_path(dir) == dir / "viewer.html");
    CHECK(arb::view::default_page_path(dir / "record.json") == dir / "viewer.html");
    CHECK(arb::view::default_page_path(kAntsReplay) == fs::path(kAntsReplay.stem().string() + ".html"));
}

TEST_CASE("view: bad inputs are one-line user errors naming the file") {
    const fs::path dir = scratch("bad");
    CHECK(error_of(dir / "missing.json").find("no such file") != std::string::npos);
    CHECK(error_of(dir).find("no match record in this folder") != std::string::npos);

    write(dir / "other.json", R"({"hello": 1})");
    CHECK(error_of(dir / "other.json").find("not a match record, nor a replay or log of a game the viewer knows") != std::string::npos);

    write(dir / "cut.json", R"({"challenge": "ants", "replaydata": {"map": )");
    CHECK(error_of(dir / "cut.json").find("cut.json") != std::string::npos);

    write(dir / "ants.json", R"({"challenge": "ants", "replaydata": {"revision": 3}})");
    CHECK(error_of(dir / "ants.json").find("ants.json") != std::string::npos);

    write(dir / "prose.txt", "hello there\n");
    CHECK(error_of(dir / "prose.txt").find("not a match record, nor a replay") != std::string::npos);
    write(dir / "notes-only.txt", "# map x\n# players 1\n");
    CHECK(error_of(dir / "notes-only.txt").find("not a match record, nor a replay") != std::string::npos);
    write(dir / "notes.txt", "# players 1\nP1 > join a\nhello there\n");
    CHECK(error_of(dir / "notes.txt") == (dir / "notes.txt").string() +
                                             ":3: not a smart-dog transcript line (\"P<n> > ...\", \"P<n> < ...\" or "
                                             "\"# ...\")");

    nlohmann::json record = {{"game", "ants"}, {"seed", 1}, {"participants", nlohmann::json::array()},
                             {"pairs", nlohmann::json::array()}};
    write(dir / "record.json", record.dump());
    CHECK(error_of(dir).find("is not there") != std::string::npos);

    record["game"] = "chess";
    write(dir / "record.json", record.dump());
    CHECK(error_of(dir).find("chess") != std::string::npos);

    // A samurai log whose record says it is an Ants match.
    fs::copy_file(kSamuraiLog, dir / "replay.json");
    record["game"] = "ants";
    write(dir / "record.json", record.dump());
    CHECK(error_of(dir).find("a samurai replay, where its match record says ants") != std::string::npos);
}

TEST_CASE("view: the page keeps a hostile bot name inside its data") {
    const fs::path dir = scratch("page");
    fs::copy_file(kAntsReplay, dir / "replay.json");
    const std::string evil = "</script><script>alert(1)</script><!--";
    nlohmann::json record = {{"game", "ants"}, {"seed", 1}, {"replay_path", "replay.json"},
                             {"participants", nlohmann::json::array()},
                             {"pairs", nlohmann::json::array()}};
    for (int seat = 0; seat < 2; ++seat) {
        arb::ParticipantResult p;
        p.bot = seat == 0 ? evil : "b";
        p.seat = seat;
        record["participants"].push_back(p);
    }
    write(dir / "record.json", record.dump());
    const std::string page = arb::view::viewer_page(load_match_view(dir));
    CHECK(page.find(evil) == std::string::npos);
    CHECK(page.find("&lt;/script&gt;") != std::string::npos);  // in the title, escaped
    // The data parses back to the name as given.
    const auto start = page.find("id=\"match-data\">") + 16;
    const auto end = page.find("</script>", start);
    const nlohmann::json data = nlohmann::json::parse(page.substr(start, end - start));
    CHECK(data["record"]["participants"][0]["bot"] == evil);
    // Self-contained: nothing is fetched from anywhere.
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("href=\"http") == std::string::npos);
}

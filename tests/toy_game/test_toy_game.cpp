// A sixth game added through its descriptor alone (tictactoe.hpp): the registry takes it, the
// match runner plays it between two processes, its verify checks its replay, and the viewer
// reads and draws it, with no line of the arbiter naming it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "arbiter/match/match_runner.hpp"
#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/bot_spec.hpp"
#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"
#include "tests/test_scratch.hpp"
#include "tests/toy_game/tictactoe.hpp"

using namespace arb;
using arb::testing::fresh_scratch;
namespace fs = std::filesystem;

namespace {

// Added once for the whole test program, as a program adds its games before it plays.
const GameDescriptor& toy_game() {
    static const GameDescriptor& game = [] {
        add_game(tictactoe::describe_game());
        return std::cref(find_game("tictactoe"));
    }();
    return game;
}

BotSpec first_free_cell_bot(const std::string& name) {
    return parse_bot_spec("name=" + name + " cmd=\"" + std::string(ARBITER_SOURCE_DIR) + "/tests/toy_game/first_free_cell.sh\"");
}

MatchRecord play_toy_match(const fs::path& folder) {
    MatchRequest request;
    request.game = "tictactoe";
    request.bots = {first_free_cell_bot("first"), first_free_cell_bot("second")};
    request.seed = 1;
    request.options = GameOptions(toy_game().options, {});
    request.replay_path = folder / "replay.json";
    request.record_path = folder / "record.json";
    return run_match(toy_game(), request);
}

std::string text_of(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("a toy game added through its descriptor alone is played, verified and viewed") {
    const fs::path folder = fresh_scratch("toy-game");
    const MatchRecord record = play_toy_match(folder);
    // x takes the first free cell each turn, o the next: x wins on the diagonal 2-4-6 at move 7.
    REQUIRE(record.participants.size() == 2);
    CHECK(record.participants[0].rank == 1);
    CHECK(record.participants[1].rank == 2);
    CHECK(record.end_reason == "three in a row");
    const nlohmann::json replay = parse_json_text(text_of(folder / "replay.json"), "replay");
    CHECK(replay["moves"] == nlohmann::json({0, 1, 2, 3, 4, 5, 6}));
    CHECK(replay["winner"] == 0);

    const VerifyOutcome verified = toy_game().verify(folder / "replay.json");
    CHECK(verified.ok);
    CHECK(verified.steps == 7);

    const view::MatchView view = view::load_match_view(folder);
    CHECK(view.game == "tictactoe");
    CHECK(view.data["replay"]["moves"].size() == 7);
    const std::string page = view::viewer_page(view);
    CHECK(page.find("ArbiterView.renderers.tictactoe") != std::string::npos);
    CHECK(page.find("first vs second") != std::string::npos);
}

TEST_CASE("a toy game's replay that its own rules refuse is refused by verify and by the viewer") {
    toy_game();
    const fs::path folder = fresh_scratch("toy-game-bad");
    std::ofstream(folder / "bad.json") << R"({"game": "tictactoe", "moves": [0, 0], "winner": null})";
    const VerifyOutcome verified = toy_game().verify(folder / "bad.json");
    CHECK(!verified.ok);
    CHECK(verified.first_difference.find("move 2: cell 0 is not free") != std::string::npos);
    CHECK_THROWS_WITH_AS(view::load_match_view(folder / "bad.json"), doctest::Contains("move 2: cell 0 is not free"),
                         UserError);
    // Another game's name is still refused with the known games listed, the toy one among them.
    CHECK_THROWS_WITH_AS(find_game("tictactoes"), doctest::Contains("tictactoe"), UserError);
}

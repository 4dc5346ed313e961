// The template every game follows, checked on every game of the registry: a seeded playthrough
// with in-process bots is deterministic, its replay passes the game's verifier, a bot fault of
// each kind gives the same status in every game, and the options follow one vocabulary with the
// older names as aliases.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/match_record.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"
#include "tests/rules/every_game_play.hpp"

using namespace arb;
using every_game::GameCase;
using namespace every_game;
namespace fs = std::filesystem;

namespace {

std::string result_text(const RefereeResult& r) {
    nlohmann::json participants = nlohmann::json::array();
    for (const auto& p : r.participants)
        participants.push_back({{"score", p.score}, {"rank", p.rank}, {"status", to_string(p.status)}, {"detail", p.detail}});
    nlohmann::json j = {{"participants", participants}, {"pairs", r.pairs}, {"end_reason", r.end_reason}, {"turns", r.turns}};
    return j.dump();
}

}  // namespace

TEST_CASE("every game of the registry has a case here, and the same parts") {
    std::set<std::string> cased;
    for (const auto& c : every_game::every_game_cases()) cased.insert(c.name);
    for (const auto& g : all_games()) {
        CAPTURE(g.name);
        CHECK(cased.count(g.name) == 1);
        CHECK(g.plan);
        CHECK(g.referee);
        CHECK(g.verify);  // every game checks its replays
        CHECK(!g.replay_file.empty());
    }
    CHECK(cased.size() == all_games().size());
}

// The referee decides outcomes only (score, rank, status, detail): the bot, its command, its seat
// and its processes' usage and ends come from the request and the table, and the match runner
// (finish_record) puts them in the record once.
template <class T>
concept NamesItsBot = requires(T t) { t.bot; t.command; t.seat; t.usage; };
static_assert(NamesItsBot<ParticipantResult>);
static_assert(!NamesItsBot<decltype(RefereeResult{}.participants)::value_type>,
              "a referee's result must not carry what the runner assembles");

TEST_CASE("every game: a seeded playthrough is deterministic, and its replay verifies") {
    for (const auto& game : every_game::every_game_cases()) {
        CAPTURE(game.name);
        const Played a = play(game, 11, scratch(game.name + "-a"));
        const Played b = play(game, 11, scratch(game.name + "-b"));
        CHECK(result_text(a.result) == result_text(b.result));
        CHECK(a.transcript == b.transcript);
        REQUIRE(!a.replay.empty());
        CHECK(a.replay == b.replay);
        CHECK(a.result.participants.size() == static_cast<std::size_t>(game.bots));
        for (const auto& p : a.result.participants) CHECK(p.status == SeatStatus::ok);
        // The bots played: more went to them than the setup.
        CHECK(a.transcript.size() > 20);
        // Another seed, another game (the bots draw from it).
        const Played other = play(game, 12, scratch(game.name + "-c"));
        CHECK(other.transcript != a.transcript);

        const VerifyOutcome verified = find_game(game.name).verify(a.replay_path);
        CHECK_MESSAGE(verified.ok, verified.first_difference);
        CHECK(verified.steps > 0);
    }
}

TEST_CASE("every game: a bot's fault of each kind gives the same status in every game") {
    const std::map<Fault, SeatStatus> same_everywhere = {
        {Fault::timeout, SeatStatus::timeout}, {Fault::crash, SeatStatus::crashed}, {Fault::overflow, SeatStatus::killed}};
    for (const auto& game : every_game::every_game_cases()) {
        for (const Fault fault : {Fault::timeout, Fault::crash, Fault::overflow, Fault::illegal}) {
            CAPTURE(game.name);
            CAPTURE(fault_name(fault));
            const Played played = play(game, 5, scratch(game.name + "-fault"), fault);
            REQUIRE(played.result.participants.size() == static_cast<std::size_t>(game.bots));
            const ParticipantOutcome& faulty = played.result.participants[0];
            const SeatStatus want = fault == Fault::illegal ? game.illegal_status : same_everywhere.at(fault);
            CHECK(faulty.status == want);
            if (fault == Fault::illegal) CHECK(faulty.detail.find(game.illegal_detail) != std::string::npos);
            if (want != SeatStatus::ok) CHECK(!faulty.detail.empty());
            // The others are not charged with it.
            for (std::size_t p = 1; p < played.result.participants.size(); ++p)
                CHECK(played.result.participants[p].status == SeatStatus::ok);
            // A bot put out never ranks above the bots that played (Koehandel ranks by score alone:
            // a bot out of the conversation still holds the cards it had).
            if (want != SeatStatus::ok && game.name != "koehandel")
                for (std::size_t p = 1; p < played.result.participants.size(); ++p)
                    CHECK(faulty.rank >= played.result.participants[p].rank);
        }
    }
}

TEST_CASE("seat faults: one mapping from a failed reply to a status") {
    CHECK(reply_fault(ReplyStatus::ok, SeatStatus::ok, "").status == SeatStatus::ok);
    CHECK(!reply_fault(ReplyStatus::ok, SeatStatus::ok, "").failed());
    CHECK(reply_fault(ReplyStatus::timeout, SeatStatus::timeout, "no complete reply").status == SeatStatus::timeout);
    CHECK(reply_fault(ReplyStatus::timeout, SeatStatus::timeout, "no complete reply").reason.empty());
    CHECK(reply_fault(ReplyStatus::closed, SeatStatus::crashed, "exited with code 3").status == SeatStatus::crashed);
    const SeatFault flood = reply_fault(ReplyStatus::overflow, SeatStatus::ok, "");
    CHECK(flood.status == SeatStatus::killed);
    CHECK(flood.reason == "reply over the size limit");
    CHECK(reply_fault(ReplyStatus::not_running, SeatStatus::ok, "").status == SeatStatus::crashed);
    // A limit the table enforced stays a kill, with the table's reason, whatever the reply says.
    for (const auto reply : {ReplyStatus::timeout, ReplyStatus::closed, ReplyStatus::overflow, ReplyStatus::not_running}) {
        const SeatFault f = reply_fault(reply, SeatStatus::killed, "memory limit of 100 MiB exceeded");
        CHECK(f.status == SeatStatus::killed);
        CHECK(f.reason == "memory limit of 100 MiB exceeded");
    }
    // A seat the referee retired earlier keeps that status for later requests.
    CHECK(reply_fault(ReplyStatus::not_running, SeatStatus::illegal, "bad move").status == SeatStatus::illegal);
    // The table types each failed reply once, with that mapping.
    ScriptedTable table({{{0, "a", "p0"}, [](std::string_view) { return ScriptedAnswer::timeout(); }},
                         {{1, "b", "p1"}, [](std::string_view) { return ScriptedAnswer::crash(); }}});
    CHECK(table.ask(0, "go\n", one_line_framer()).fault->status == SeatStatus::timeout);
    CHECK(table.ask(1, "go\n", one_line_framer()).fault->status == SeatStatus::crashed);
    table.retire(0, SeatStatus::illegal, "bad move");
    CHECK(table.ask(0, "go\n", one_line_framer()).fault->status == SeatStatus::timeout);  // retired as timeout first
    CHECK(table.ask(1, "go\n", one_line_framer()).fault->status == SeatStatus::crashed);
}

TEST_CASE("every game: option names follow one vocabulary, the older names are aliases") {
    const std::set<std::string> shared = {"turn-ms", "startup-ms", "total-time-ms", "turns", "map"};
    const std::set<std::string> older = {"turntime", "loadtime", "reply-ms", "think-time"};
    for (const auto& g : all_games()) {
        CAPTURE(g.name);
        for (const auto& spec : g.options) {
            CAPTURE(spec.key);
            CHECK(spec.key.find('_') == std::string::npos);  // dashed words, as the CLI flags
            CHECK(older.count(spec.key) == 0);
            CHECK(find_option_spec(g.options, spec.key) == &spec);
            for (const auto& alias : spec.aliases) CHECK(find_option_spec(g.options, alias) == &spec);
        }
    }
    // The per-reply limit is turn-ms wherever a game has one; the older names still set it.
    const auto value_of = [](const std::string& game, const std::string& key, std::map<std::string, std::string> given) {
        return GameOptions(find_game(game).options, std::move(given)).text(key);
    };
    const std::string ants_map = every_game::shared_data("ants/maps/maze_02p_02.map");
    const std::string field = every_game::shared_data("samurai/fields/sample.dighere");
    CHECK(value_of("ants", "turn-ms", {{"map", ants_map}, {"turntime", "500"}}) == "500");
    CHECK(value_of("ants", "startup-ms", {{"map", ants_map}, {"loadtime", "700"}}) == "700");
    CHECK(value_of("ants", "food-rate", {{"map", ants_map}, {"food_rate", "6"}}) == "6");
    CHECK(value_of("ants", "cutoff-percent", {{"map", ants_map}, {"cutoff_percent", "0.5"}}) == "0.5");
    CHECK(value_of("koehandel", "turn-ms", {{"reply-ms", "400"}}) == "400");
    CHECK(value_of("samurai", "total-time-ms", {{"field", field}, {"think-time", "250"}}) == "250");
    CHECK(value_of("smartdog", "turn-ms", {{"map", "m"}, {"turn-ms", "300"}}) == "300");
    CHECK(value_of("planowanie", "total-time-ms", {{"total_time_ms", "900"}}) == "900");
    // One option under two names: the same value is fine, two values are an error.
    CHECK(value_of("ants", "turn-ms", {{"map", ants_map}, {"turntime", "500"}, {"turn-ms", "500"}}) == "500");
    CHECK_THROWS_WITH_AS(value_of("ants", "turn-ms", {{"map", ants_map}, {"turntime", "500"}, {"turn-ms", "600"}}),
                         doctest::Contains("given twice"), UserError);
    CHECK_THROWS_WITH_AS(value_of("koehandel", "turn-ms", {{"reply_mss", "1"}}), doctest::Contains("unknown game option"),
                         UserError);
    // Every game with a limit per reply calls it turn-ms; a budget for the whole match is total-time-ms.
    std::map<std::string, std::set<std::string>> keys;
    for (const auto& g : all_games())
        for (const auto& spec : g.options)
            if (shared.count(spec.key)) keys[spec.key].insert(g.name);
    CHECK(keys["turn-ms"] == std::set<std::string>{"ants", "smartdog", "koehandel"});
    CHECK(keys["startup-ms"] == std::set<std::string>{"ants", "koehandel"});
    CHECK(keys["total-time-ms"] == std::set<std::string>{"planowanie", "samurai"});
    // An older name gives the same seats and clocks as the new one.
    const GameDescriptor& ants = find_game("ants");
    MatchRequest old_names, new_names;
    for (auto* r : {&old_names, &new_names}) {
        r->game = "ants";
        r->bots.resize(2);
    }
    old_names.options = GameOptions(ants.options, {{"map", ants_map}, {"turntime", "500"}, {"loadtime", "900"}});
    new_names.options = GameOptions(ants.options, {{"map", ants_map}, {"turn-ms", "500"}, {"startup-ms", "900"}});
    CHECK(ants.plan(old_names)[0].time.per_request == Millis{500});
    CHECK(ants.plan(old_names)[0].time.first_request == Millis{900});
    CHECK(old_names.options.to_json() == new_names.options.to_json());
}

TEST_CASE("koehandel verify: a log that differs from the replayed game is found, at its line") {
    const GameCase game = every_game::every_game_cases().back();
    REQUIRE(game.name == "koehandel");
    const Played played = play(game, 3, scratch("koehandel-verify"));
    const auto verify = find_game("koehandel").verify;
    REQUIRE(verify(played.replay_path).ok);
    CHECK(verify(played.replay_path / "match.json").ok);  // the folder or its match file

    const fs::path log = played.replay_path / "player2-bot1.log";
    const std::string original = played.replay.at("player2-bot1.log");
    const auto rewrite = [&](const std::function<void(std::vector<std::string>&)>& change) {
        std::vector<std::string> lines = every_game::lines_of(original);
        change(lines);
        std::ofstream out(log, std::ios::binary | std::ios::trunc);
        for (const auto& l : lines) out << l << '\n';
    };
    // A request the engine did not make.
    rewrite([](std::vector<std::string>& lines) { lines[4] += "x"; });
    VerifyOutcome outcome = verify(played.replay_path);
    CHECK(!outcome.ok);
    CHECK(outcome.first_difference.find("player2-bot1.log line 5") != std::string::npos);
    // A reply the bot did not give: the game goes another way from there.
    rewrite([](std::vector<std::string>& lines) {
        for (auto& l : lines)
            if (l == "< money=h") {
                l = "< money=F";
                return;
            }
        FAIL("no bid of h in the log");
    });
    CHECK(!verify(played.replay_path).ok);
    // A log cut short, and a log that goes on after the game.
    rewrite([](std::vector<std::string>& lines) { lines.pop_back(); });
    CHECK(!verify(played.replay_path).ok);
    rewrite([](std::vector<std::string>& lines) { lines.push_back("> /?market=1&id=2&type=start"); });
    outcome = verify(played.replay_path);
    CHECK(!outcome.ok);
    CHECK(outcome.first_difference.find("the end of the game") != std::string::npos);
    rewrite([](std::vector<std::string>&) {});
    CHECK(verify(played.replay_path).ok);
    // Another seed in the match file: every request names another market.
    const fs::path match_file = played.replay_path / "match.json";
    const std::string match_text = played.replay.at("match.json");
    nlohmann::json match = nlohmann::json::parse(match_text);
    match["seed"] = 4;
    std::ofstream(match_file, std::ios::trunc) << match.dump();
    CHECK(!verify(played.replay_path).ok);
    // A folder that is not a match's logs is bad input, named.
    std::ofstream(match_file, std::ios::trunc) << "{\"game\": \"ants\"}";
    CHECK_THROWS_WITH_AS(verify(played.replay_path), doctest::Contains("not a Koehandel match file"), UserError);
    std::ofstream(match_file, std::ios::trunc) << "{\"game\": \"koehandel\", \"seed\": -1}";
    CHECK_THROWS_AS(verify(played.replay_path), UserError);
    fs::remove(match_file);
    CHECK_THROWS_WITH_AS(verify(played.replay_path), doctest::Contains("no match.json"), UserError);
}

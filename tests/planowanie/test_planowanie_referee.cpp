// The referee over in-process bots (ScriptedTable): the seed's command sequence, framing
// tolerance, every adjudication path, rotations, the descriptor's options, and a golden transcript.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/user_error.hpp"
#include "arbiter/match/match_runner.hpp"
#include "tools/bots/planowanie/in_process_bots.hpp"
#include "rules/planowanie/planowanie_game.hpp"
#include "rules/planowanie/planowanie_log.hpp"
#include "rules/planowanie/planowanie_referee.hpp"

using namespace arb;
using namespace arb::planowanie;
using namespace planowanie_test;
using namespace std::chrono_literals;

namespace {

constexpr Millis kBudget{180000};

ScriptedTable make_table(std::vector<ScriptedBot> bots, Millis budget = kBudget) {
    std::vector<ScriptedTable::Seat> seats;
    for (std::size_t i = 0; i < bots.size(); ++i) {
        const int s = static_cast<int>(i);
        seats.push_back(
            {SeatInfo{s, "bot" + std::to_string(s), "p" + std::to_string(s)}, std::move(bots[i]), budget});
    }
    return ScriptedTable(std::move(seats));
}

std::vector<ScriptedBot> random_bots(int n, std::uint64_t first_seed = 1) {
    std::vector<ScriptedBot> bots;
    for (int i = 0; i < n; ++i) bots.push_back(random_bot(first_seed + static_cast<std::uint64_t>(i)));
    return bots;
}

RefereeSettings settings_for(Config config, std::uint64_t deal_seed = 42, bool quit = true,
                             std::filesystem::path log_path = {}) {
    return RefereeSettings{std::move(config), deal_seed, quit, std::move(log_path)};
}

std::filesystem::path scratch_file(const std::string& name) {
    const auto dir = std::filesystem::path(ARBITER_BINARY_DIR) / "test-scratch" / "planowanie";
    std::filesystem::create_directories(dir);
    return dir / name;
}

// Commands the referee sent to a seat, without the trailing newline.
std::vector<std::string> commands_to(const ScriptedTable& table, int seat) {
    const std::string prefix = std::to_string(seat) + "> ";
    std::vector<std::string> out;
    for (const auto& line : table.transcript()) {
        if (starts_with(line, prefix)) {
            std::string text = line.substr(prefix.size());
            if (!text.empty() && text.back() == '\n') text.pop_back();
            out.push_back(text);
        }
    }
    return out;
}

std::string transcript_text(const ScriptedTable& table) {
    std::string out;
    for (std::string line : table.transcript()) {
        if (!line.empty() && line.back() == '\n') line.pop_back();
        out += line + "\n";
    }
    return out;
}

// The tests' own deterministic player: declares 0, plays its first legal card.
class FirstLegal final : public planowanie_bot::Strategy {
  public:
    int declare(const planowanie_bot::Game&) override { return 0; }
    planowanie_bot::Card choose(const planowanie_bot::Game& game) override {
        return game.legal_cards().front();
    }
};

std::vector<ScriptedBot> first_legal_bots(int n) {
    std::vector<ScriptedBot> bots;
    for (int i = 0; i < n; ++i) bots.push_back(scripted_bot(std::make_shared<FirstLegal>()));
    return bots;
}

// A card of the deck that the bot does not hold.
std::string card_not_in_hand(const planowanie_bot::Game& game) {
    for (std::size_t s = 0; s < game.suits.size(); ++s) {
        for (std::size_t v = 0; v < game.values.size(); ++v) {
            planowanie_bot::Card c{static_cast<int>(v), static_cast<int>(s)};
            if (std::find(game.hand.begin(), game.hand.end(), c) == game.hand.end()) return game.text(c);
        }
    }
    return "??";
}

Fault on(std::string_view command_prefix, int at_deal, ScriptedAnswer answer) {
    return [prefix = std::string(command_prefix), at_deal, answer](
               std::string_view command, int deal,
               const planowanie_bot::Game&) -> std::optional<ScriptedAnswer> {
        if (deal == at_deal && starts_with(command, prefix)) return answer;
        return std::nullopt;
    };
}

void check_fault_result(const RefereeResult& result, int faulty, SeatStatus status,
                        const ScriptedTable& table) {
    const int n = static_cast<int>(result.participants.size());
    CHECK(result.end_reason == "seat " + std::to_string(faulty) + " " + to_string(status));
    for (int s = 0; s < n; ++s) {
        const auto& p = result.participants[static_cast<std::size_t>(s)];
        if (s == faulty) {
            CHECK(p.status == status);
            CHECK(p.rank == n);
            CHECK_FALSE(p.detail.empty());
        } else {
            CHECK(p.status == SeatStatus::ok);
            CHECK(p.rank == 1);
        }
    }
    // Only the faulty seat's losses: one pair per other seat, each a loss of the faulty seat.
    REQUIRE(result.pairs.size() == static_cast<std::size_t>(n - 1));
    for (const auto& pair : result.pairs) {
        CHECK((pair.a == faulty || pair.b == faulty));
        CHECK(pair.score_a == (pair.a == faulty ? 0.0 : 1.0));
    }
    // The match stops at once: after the fault, the others get only the rest of the same
    // broadcast (a simultaneous command goes to every seat) and `quit`.
    bool after = false;
    std::string last_command;
    for (const auto& line : table.transcript()) {
        const auto arrow = line.find("> ");
        if (starts_with(line, "# seat " + std::to_string(faulty) + " retired"))
            after = true;
        else if (arrow != std::string::npos && !after)
            last_command = line.substr(arrow + 2);
        else if (arrow != std::string::npos) {
            const std::string command = line.substr(arrow + 2);
            CHECK((command == "quit\n" || (command == last_command && !starts_with(command, "gen_"))));
        }
    }
    if (status == SeatStatus::illegal) CHECK(table.status(faulty) == SeatStatus::illegal);
}

}  // namespace

TEST_CASE("planowanie referee: GTP framing accepts the tolerated forms") {
    auto frame = [](std::vector<std::string> lines) {
        auto framer = gtp_framer();
        std::vector<std::string> kept;
        for (const auto& line : lines) {
            const Frame f = framer(line);
            if (f == Frame::keep || f == Frame::end_keep) kept.push_back(line);
            if (f == Frame::end_keep || f == Frame::end_skip) return parse_gtp_reply(kept);
        }
        return GtpReply{};  // never completed
    };
    CHECK(frame({"= 5", ""}).payload == "5");
    CHECK(frame({"=  5 ", ""}).payload == "5");
    CHECK(frame({"=\t5", ""}).payload == "5");
    CHECK(frame({"", "  ", "= AS", ""}).payload == "AS");
    const GtpReply glued = frame({"=5", ""});
    CHECK(glued.payload == "5");
    CHECK(glued.glued);
    CHECK(frame({"= ", ""}).kind == GtpReply::Kind::success);
    CHECK(frame({"=", ""}).payload.empty());
    const GtpReply junk = frame({"debug: thinking", "= 3", ""});
    CHECK(junk.junk_lines == 1);
    CHECK(junk.payload == "3");
    const GtpReply failure = frame({"? unknown command", ""});
    CHECK(failure.kind == GtpReply::Kind::failure);
    CHECK(failure.payload == "unknown command");
    const GtpReply extra = frame({"= 3", "more", ""});
    CHECK(extra.payload == "3");
    CHECK(extra.extra_lines == 1);
    // A reply without its empty line never completes (the bot runs out of time).
    CHECK(frame({"= 3"}).kind == GtpReply::Kind::missing);
    // A flood of junk completes the frame without a reply line.
    std::vector<std::string> flood(kMaxJunkLines + 1, "junk");
    CHECK(frame(flood).kind == GtpReply::Kind::missing);
    CHECK(normalize_line("= A\x01S\x7f") == "= AS");
}

TEST_CASE("planowanie referee: declarations parse as one decimal integer") {
    CHECK(parse_declaration("0") == 0);
    CHECK(parse_declaration("13") == 13);
    CHECK(parse_declaration("-1") == -1);  // parsed, then rejected by the rules
    CHECK_FALSE(parse_declaration(""));
    CHECK_FALSE(parse_declaration("3 4"));
    CHECK_FALSE(parse_declaration("abc"));
    CHECK_FALSE(parse_declaration("2x"));
    CHECK_FALSE(parse_declaration("99999999999"));
}

TEST_CASE("planowanie referee: sends exactly the seed's command sequence") {
    Config config;
    config.deck = Deck("TJQKA", "HS");
    config.players = 2;
    config.deals = {{1, 0}, {3, 1}};
    ScriptedTable table = make_table(random_bots(2, 11));
    const RefereeResult result = run_referee(settings_for(config, 5), table);
    REQUIRE(result.end_reason == "completed");

    // Walk the engine alongside each seat's command list.
    for (int seat = 0; seat < 2; ++seat) {
        const auto got = commands_to(table, seat);
        std::vector<std::string> expected = {"set_deck TJQKA HS", "set_players 2 " + std::to_string(seat),
                                             "set_game 2 1 0 3 1"};
        State state(config);
        for (int deal = 0; deal < 2; ++deal) {
            const auto hands = deal_hands(config, deal, 5);
            REQUIRE_FALSE(state.apply_deal(hands));
            std::string set_cards = "set_cards " + std::to_string(hands[seat].size());
            for (const Card& c : hands[seat]) set_cards += " " + config.deck.text(c);
            expected.push_back(set_cards);
            expected.push_back("time_left 180000");
            expected.push_back("gen_declare");
            // Declarations come from the transcript (the bots are random); check their shape.
            for (int p = 0; p < 2; ++p) {
                REQUIRE(got.size() > expected.size());
                const std::string& line = got[expected.size()];
                REQUIRE(starts_with(line, "declare " + std::to_string(p) + " "));
                REQUIRE_FALSE(state.apply_declaration(p, std::stoi(line.substr(10))));
                expected.push_back(line);
            }
            while (state.phase() == Phase::play) {
                const int mover = state.to_move();
                if (mover == seat) {
                    expected.push_back("time_left 180000");
                    expected.push_back("gen_move");
                }
                REQUIRE(got.size() > expected.size());
                const std::string& line = got[expected.size()];
                REQUIRE(starts_with(line, "play " + std::to_string(mover) + " "));
                REQUIRE_FALSE(state.apply_card(mover, *config.deck.parse(line.substr(7))));
                expected.push_back(line);
            }
        }
        expected.push_back("quit");
        CHECK(got == expected);
    }
    // The referee's scores are the engine's.
    CHECK(result.turns == 2);
}

TEST_CASE("planowanie referee: a full tournament match completes and is reproducible") {
    auto play = [] {
        ScriptedTable table = make_table(random_bots(4, 1));
        RefereeResult result = run_referee(settings_for(Config::tournament(), 2026), table);
        return std::make_pair(result, transcript_text(table));
    };
    const auto [result, transcript] = play();
    CHECK(result.end_reason == "completed");
    CHECK(result.turns == 13);
    REQUIRE(result.participants.size() == 4);
    double total = 0;
    for (const auto& p : result.participants) {
        CHECK(p.status == SeatStatus::ok);
        CHECK(p.detail.empty());
        total += p.score;
    }
    CHECK(total >= 91);  // 1 + 2 + ... + 13 tricks, plus bonuses
    CHECK(total <= 91 + 4 * 91);
    CHECK(result.pairs.size() == 6);
    const auto [again, transcript_again] = play();
    CHECK(again.participants == result.participants);
    CHECK(transcript_again == transcript);
}

TEST_CASE("planowanie referee: golden transcript of sample bots stays byte-identical") {
    // Regenerate: PLANOWANIE_UPDATE_GOLDEN=1 ./test_planowanie -tc="*golden*" (writes the file
    // under the source tree; review the diff before committing it).
    std::vector<ScriptedBot> bots = {heuristic_bot(), random_bot(7), random_bot(8), heuristic_bot()};
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament(), 20091122), table);
    std::ostringstream record;
    record << "# end: " << result.end_reason << "\n";
    for (const auto& p : result.participants) {
        record << "# seat " << p.seat << " score " << p.score << " rank " << p.rank << "\n";
    }
    const std::string text = transcript_text(table) + record.str();
    const std::string path =
        std::string(ARBITER_SOURCE_DIR) + "/tests/planowanie/golden/match_seed20091122.transcript";
    if (std::getenv("PLANOWANIE_UPDATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << text;
        MESSAGE("golden transcript rewritten: " << path);
    }
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "missing golden file " << path);
    std::stringstream golden;
    golden << in.rdbuf();
    CHECK(golden.str() == text);
}

TEST_CASE("planowanie referee: framing variants from bots are tolerated") {
    // Same bots and seed; one seat's replies rewritten in a tolerated form. The game must be the same.
    auto run_with = [](std::function<std::string(std::string)> rewrite) {
        std::vector<ScriptedBot> bots = random_bots(4, 3);
        ScriptedBot inner = bots[2];
        bots[2] = [inner, rewrite](std::string_view request) {
            ScriptedAnswer a = inner(request);
            a.output = rewrite(a.output);
            return a;
        };
        ScriptedTable table = make_table(std::move(bots));
        return run_referee(settings_for(Config::tournament(), 77), table);
    };
    auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
        for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
            s.replace(at, from.size(), to);
        }
        return s;
    };
    const RefereeResult clean = run_with([](std::string s) { return s; });
    REQUIRE(clean.end_reason == "completed");
    const std::vector<std::pair<const char*, std::function<std::string(std::string)>>> variants = {
        {"CRLF", [&](std::string s) { return replace_all(s, "\n", "\r\n"); }},
        {"glued", [&](std::string s) { return replace_all(s, "= ", "="); }},
        {"extra spaces", [&](std::string s) { return replace_all(s, "= ", "=   "); }},
        {"tab", [&](std::string s) { return replace_all(s, "= ", "=\t"); }},
        {"trailing space", [&](std::string s) { return replace_all(s, "\n\n", " \n\n"); }},
        {"blank lines before", [&](std::string s) { return "\n \n" + s; }},
        {"blank lines after", [&](std::string s) { return s + "\n\n"; }},
        {"debug line before", [&](std::string s) { return "thinking...\n" + s; }},
    };
    for (const auto& [name, rewrite] : variants) {
        CAPTURE(name);
        const RefereeResult r = run_with(rewrite);
        CHECK(r.end_reason == "completed");
        for (std::size_t s = 0; s < 4; ++s) {
            CHECK(r.participants[s].score == clean.participants[s].score);
            CHECK(r.participants[s].status == SeatStatus::ok);
        }
    }
}

TEST_CASE("planowanie referee: an illegal card ends the match, the player loses to each other") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2,
                         [](std::string_view command, int deal,
                            const planowanie_bot::Game& game) -> std::optional<ScriptedAnswer> {
                             if (deal == 2 && command == "gen_move")
                                 return ScriptedAnswer::text("= " + card_not_in_hand(game) + "\n\n");
                             return std::nullopt;
                         });
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 1, SeatStatus::illegal, table);
    CHECK(result.participants[1].detail.find("not in the hand") != std::string::npos);
    CHECK(result.participants[1].detail.find("deal 3") != std::string::npos);
    CHECK(result.turns == 2);
}

TEST_CASE("planowanie referee: not following suit is an illegal card") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[3] = random_bot(
        4,
        [](std::string_view command, int, const planowanie_bot::Game& game) -> std::optional<ScriptedAnswer> {
            if (command != "gen_move" || game.trick.empty()) return std::nullopt;
            const int led = game.trick.front().card.suit;
            const bool holds =
                std::any_of(game.hand.begin(), game.hand.end(), [&](auto& c) { return c.suit == led; });
            for (const auto& c : game.hand) {
                if (holds && c.suit != led) return ScriptedAnswer::text("= " + game.text(c) + "\n\n");
            }
            return std::nullopt;
        });
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 3, SeatStatus::illegal, table);
    CHECK(result.participants[3].detail.find("does not follow") != std::string::npos);
}

TEST_CASE("planowanie referee: malformed cards and declarations are illegal") {
    struct Case {
        const char* command;
        const char* reply;
        const char* detail;
    };
    const Case cases[] = {
        {"gen_move", "= ZZ\n\n", "malformed card 'ZZ'"},
        {"gen_move", "= AS AH\n\n", "malformed card"},
        {"gen_move", "=\n\n", "malformed card ''"},
        {"gen_declare", "= abc\n\n", "malformed declaration 'abc'"},
        {"gen_declare", "= -1\n\n", "illegal declaration -1"},
        {"gen_declare", "= 3\n\n", "outside 0..2"},  // deal 2 has 2 cards
    };
    for (const Case& c : cases) {
        CAPTURE(c.reply);
        std::vector<ScriptedBot> bots = random_bots(4);
        bots[0] = random_bot(1, on(c.command, 1, ScriptedAnswer::text(c.reply)));
        ScriptedTable table = make_table(std::move(bots));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        check_fault_result(result, 0, SeatStatus::illegal, table);
        CHECK(result.participants[0].detail.find(c.detail) != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a '?' answer to gen_declare or gen_move is a fault") {
    for (const char* command : {"gen_declare", "gen_move"}) {
        CAPTURE(command);
        std::vector<ScriptedBot> bots = random_bots(4);
        bots[2] = random_bot(3, on(command, 0, ScriptedAnswer::text("? cannot decide\n\n")));
        ScriptedTable table = make_table(std::move(bots));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        check_fault_result(result, 2, SeatStatus::illegal, table);
        CHECK(result.participants[2].detail.find("answered '? cannot decide'") != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a '?' answer to time_left or another informational command is fine") {
    for (const char* command : {"time_left", "play", "declare", "set_game"}) {
        CAPTURE(command);
        std::vector<ScriptedBot> bots = random_bots(4);
        ScriptedBot inner = bots[1];
        bots[1] = [inner, command = std::string(command)](std::string_view request) {
            ScriptedAnswer a = inner(request);  // keep the bot's state up to date
            if (starts_with(request, command)) a.output = "? not supported\n\n";
            return a;
        };
        ScriptedTable table = make_table(std::move(bots));
        const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
        CHECK(result.end_reason == "completed");
        CHECK(result.participants[1].status == SeatStatus::ok);
        CHECK(result.participants[1].detail.find("protocol warnings") != std::string::npos);
    }
}

TEST_CASE("planowanie referee: a crash mid-deal ends the match") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[2] = random_bot(3, on("play", 4, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 2, SeatStatus::crashed, table);
    CHECK(result.participants[2].detail.find("deal 5") != std::string::npos);
    CHECK(result.turns == 4);
}

TEST_CASE("planowanie referee: a timeout ends the match") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[0] = random_bot(1, on("gen_move", 6, ScriptedAnswer::timeout()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 0, SeatStatus::timeout, table);
    CHECK(result.participants[0].detail.find("gen_move") != std::string::npos);
}

TEST_CASE("planowanie referee: a reply without its empty line runs the bot out of time") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[3] = random_bot(4, on("gen_declare", 0, ScriptedAnswer::text("= 0\n")));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 3, SeatStatus::timeout, table);
    CHECK(result.participants[3].detail.find("received '= 0' but no closing empty line") !=
          std::string::npos);
}

TEST_CASE("planowanie referee: a flood of junk instead of a reply is illegal") {
    std::string flood;
    for (int i = 0; i <= kMaxJunkLines; ++i) flood += "debug line " + std::to_string(i) + "\n";
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2, on("set_cards", 3, ScriptedAnswer::text(flood)));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    check_fault_result(result, 1, SeatStatus::illegal, table);
    CHECK(result.participants[1].detail.find("no '=' or '?' line") != std::string::npos);
}

TEST_CASE("planowanie referee: scores at a fault are the points of the completed deals") {
    std::vector<ScriptedBot> bots = first_legal_bots(4);
    // The fault's deal is the bot's deal index before the command: 1 = crash on the third set_cards.
    bots[2] = scripted_bot(std::make_shared<FirstLegal>(), on("set_cards", 1, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const Config config = Config::tournament();
    const RefereeResult result = run_referee(settings_for(config, 31), table);
    REQUIRE(result.end_reason == "seat 2 crashed");
    // The same two deals played directly on the engine with the same policy.
    State state(config);
    for (int deal = 0; deal < 2; ++deal) {
        REQUIRE_FALSE(state.apply_deal(deal_hands(config, deal, 31)));
        for (int s = 0; s < 4; ++s) REQUIRE_FALSE(state.apply_declaration(s, 0));
        while (state.phase() == Phase::play) {
            const int s = state.to_move();
            REQUIRE_FALSE(state.apply_card(s, state.legal_cards(s).front()));
        }
    }
    for (int s = 0; s < 4; ++s) CHECK(result.participants[s].score == state.score(s));
    CHECK(result.turns == 2);
}

TEST_CASE("planowanie referee: seats failing on the same command all lose, only to the others") {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2, on("gen_declare", 0, ScriptedAnswer::text("? no\n\n")));
    bots[3] = random_bot(4, on("gen_declare", 0, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament()), table);
    CHECK(result.end_reason == "seat 1 illegal, seat 3 crashed");
    CHECK(result.participants[0].rank == 1);
    CHECK(result.participants[1].rank == 3);
    CHECK(result.participants[3].rank == 3);
    const std::vector<PairResult> expected = {{0, 1, 1.0}, {0, 3, 1.0}, {1, 2, 0.0}, {2, 3, 1.0}};
    CHECK(result.pairs == expected);
}

TEST_CASE("planowanie referee: end by kill sends no quit") {
    Config config;
    config.deck = Deck("TJQKA", "HS");
    config.players = 2;
    config.deals = {{2, 0}};
    ScriptedTable quit_table = make_table(random_bots(2));
    run_referee(settings_for(config, 3, true), quit_table);
    CHECK(commands_to(quit_table, 0).back() == "quit");
    ScriptedTable kill_table = make_table(random_bots(2));
    run_referee(settings_for(config, 3, false), kill_table);
    CHECK(commands_to(kill_table, 0).back() != "quit");
}

TEST_CASE("planowanie referee: time_left reports the seat's clock") {
    Config config;
    config.deck = Deck("TJQKA", "HS");
    config.players = 2;
    config.deals = {{1, 0}};
    ScriptedTable table = make_table(random_bots(2), Millis{1234});
    run_referee(settings_for(config), table);
    const auto got = commands_to(table, 1);
    CHECK(std::count(got.begin(), got.end(), "time_left 1234") == 2);  // before gen_declare and gen_move
}

TEST_CASE("planowanie game: every rotation of a deal set gives each seat the same hands") {
    const GameDescriptor game = describe_game();
    MatchRequest base;
    base.game = "planowanie";
    for (int i = 0; i < 4; ++i)
        base.bots.push_back(parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
    base.seed = 555;
    base.options = GameOptions(game.options, {{"schedule", "3 5 0 8 1 13 2"}});
    std::vector<std::vector<std::string>> hands_by_rotation;
    for (int r = 0; r < 4; ++r) {
        const MatchRequest request = rotated_request(base, r);
        ScriptedTable table = make_table(random_bots(4, 10 + static_cast<std::uint64_t>(r)));
        const RefereeResult result = game.referee(request, table);
        REQUIRE(result.end_reason == "completed");
        std::vector<std::string> hands;
        for (int s = 0; s < 4; ++s) {
            for (const auto& c : commands_to(table, s)) {
                if (starts_with(c, "set_cards")) hands.push_back(std::to_string(s) + ": " + c);
            }
        }
        CHECK(hands.size() == 12);
        hands_by_rotation.push_back(hands);
    }
    for (int r = 1; r < 4; ++r) CHECK(hands_by_rotation[r] == hands_by_rotation[0]);
    MatchRequest other = base;
    other.seed = 556;
    ScriptedTable table = make_table(random_bots(4));
    game.referee(other, table);
    std::vector<std::string> hands;
    for (int s = 0; s < 4; ++s) {
        for (const auto& c : commands_to(table, s)) {
            if (starts_with(c, "set_cards")) hands.push_back(std::to_string(s) + ": " + c);
        }
    }
    CHECK(hands != hands_by_rotation[0]);
}

TEST_CASE("planowanie game: options are checked and the plan gives each seat the match budget") {
    const GameDescriptor game = describe_game();
    CHECK(game.name == "planowanie");
    auto request_with = [&](std::map<std::string, std::string> options, int bots = 4) {
        MatchRequest request;
        for (int i = 0; i < bots; ++i)
            request.bots.push_back(parse_bot_spec("name=b" + std::to_string(i) + " cmd=/bin/true"));
        request.options = GameOptions(game.options, std::move(options));
        return request;
    };
    const auto seats = game.plan(request_with({}));
    REQUIRE(seats.size() == 4);
    CHECK(seats[0].time.total_budget == Millis{180000});
    CHECK_FALSE(seats[0].time.per_request.has_value());
    CHECK(seats[3].label == "p3");
    CHECK(seats[3].bot == 3);
    CHECK(game.plan(request_with({{"total-time-ms", "5000"}}))[1].time.total_budget == Millis{5000});
    CHECK(game.plan(request_with({}, 2)).size() == 2);
    CHECK(game.plan(request_with({{"deck-values", "TJQKA"}, {"deck-suits", "HS"}}, 3)).size() == 3);
    CHECK_THROWS_AS(game.plan(request_with({{"deck-values", "AA"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"deck-suits", ""}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "2 1 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 14 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 1 4"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"schedule", "1 x 0"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"end", "stop"}})), UserError);
    CHECK_THROWS_AS(game.plan(request_with({{"total-time-ms", "0"}})), UserError);
    CHECK_THROWS_AS(
        game.plan(request_with({{"deck-values", "TJQKA"}, {"deck-suits", "HS"}, {"schedule", "1 3 0"}}, 4)),
        UserError);
    try {
        game.plan(request_with({{"schedule", "1 14 0"}}));
    } catch (const UserError& e) {
        CHECK(std::string(e.what()).find("deal 1 needs 14 x 4 cards") != std::string::npos);
    }
}

TEST_CASE("planowanie log: a full match's log replays through the engine, tampering is found") {
    const auto path = scratch_file("full.json");
    std::filesystem::remove(path);
    ScriptedTable table = make_table(random_bots(4, 21));
    const RefereeResult result = run_referee(settings_for(Config::tournament(), 808, true, path), table);
    REQUIRE(result.end_reason == "completed");
    const GameLog log = read_game_log(path);
    CHECK(log.deals.size() == 13);
    CHECK(log.deal_seed == std::optional<std::uint64_t>(808));
    for (int s = 0; s < 4; ++s) CHECK(log.scores[s] == result.participants[s].score);
    const VerifyOutcome ok = verify_game_log(log);
    CHECK(ok.ok);
    CHECK(ok.first_difference.empty());
    CHECK(ok.steps == 13 * 4 + 91 * 4);  // declarations and cards
    // The log goes through JSON unchanged.
    CHECK(to_json(game_log_from_json(to_json(log))) == to_json(log));

    GameLog card = log;
    std::swap(card.deals[5].tricks[1].cards[0], card.deals[5].tricks[2].cards[0]);
    CHECK_FALSE(verify_game_log(card).ok);
    GameLog points = log;
    points.deals[12].points[0] += 1;
    const VerifyOutcome bad_points = verify_game_log(points);
    CHECK_FALSE(bad_points.ok);
    CHECK(bad_points.first_difference == "deal 13: points differ");
    GameLog hands = log;
    std::swap(hands.deals[3].hands[0][0], hands.deals[3].hands[1][0]);
    CHECK(verify_game_log(hands).first_difference ==
          "deal 4: the hands are not the ones the deal seed gives");
    GameLog winner = log;
    winner.deals[2].tricks[0].winner = (*winner.deals[2].tricks[0].winner + 1) % 4;
    CHECK(verify_game_log(winner).first_difference.find("winner") != std::string::npos);
    GameLog scores = log;
    scores.scores[2] += 1;
    CHECK(verify_game_log(scores).first_difference == "final scores differ");
}

TEST_CASE("planowanie log: a match ended by a fault logs the deals up to the fault") {
    const auto path = scratch_file("fault.json");
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[1] = random_bot(2, on("gen_move", 4, ScriptedAnswer::crash()));
    ScriptedTable table = make_table(std::move(bots));
    const RefereeResult result = run_referee(settings_for(Config::tournament(), 42, true, path), table);
    REQUIRE(result.end_reason == "seat 1 crashed");
    const GameLog log = read_game_log(path);
    CHECK(log.end_reason == "seat 1 crashed");
    REQUIRE(log.deals.size() == 5);
    CHECK(log.deals.back().points.empty());
    CHECK(verify_game_log(log).ok);
}

TEST_CASE("planowanie log: unreadable logs are user errors") {
    const GameDescriptor game = describe_game();
    REQUIRE(game.verify);
    const auto path = scratch_file("not-a-log.json");
    std::ofstream(path) << "{\"game\": \"ants\"}";
    CHECK_THROWS_AS(game.verify(path), UserError);
    std::ofstream(path) << "not json";
    CHECK_THROWS_AS(game.verify(path), UserError);
    std::ofstream(path) << "{\"game\": \"planowanie\", \"version\": 1}";
    CHECK_THROWS_AS(game.verify(path), UserError);
    CHECK_THROWS_AS(game.verify(scratch_file("missing.json")), UserError);
}

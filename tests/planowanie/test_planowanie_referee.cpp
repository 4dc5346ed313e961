// The referee over in-process bots (ScriptedTable) on well-behaved bots: framing tolerance, the
// seed's command sequence, whole matches, the golden transcript, quit and time_left.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/planowanie/planowanie_referee_helpers.hpp"

using namespace arb;
using namespace arb::planowanie;
using namespace planowanie_test;
using namespace planowanie_referee_test;
using namespace std::chrono_literals;

namespace {

// Feeds lines to a fresh GTP framer as a table would and parses what it kept once the frame ends.
GtpReply frame(const std::vector<std::string>& lines) {
    auto framer = gtp_framer();
    std::vector<std::string> kept;
    for (const auto& line : lines) {
        const Frame f = framer(line);
        if (f == Frame::keep || f == Frame::end_keep) kept.push_back(line);
        if (f == Frame::end_keep || f == Frame::end_skip) return parse_gtp_reply(kept);
    }
    return GtpReply{};  // never completed
}

}  // namespace

TEST_CASE("planowanie referee: GTP framing accepts the tolerated forms") {
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

TEST_CASE("planowanie referee: GTP framing reads lines as normalised, control bytes and tabs included") {
    // The framer and the parser classify lines without building the normalised copy: they must
    // agree with normalize_line on every form of blank and marker line.
    // Control bytes before the marker are dropped: the line still starts the reply.
    const GtpReply controlled = frame({"\x01\x7f= 5", ""});
    CHECK(controlled.kind == GtpReply::Kind::success);
    CHECK(controlled.junk_lines == 0);
    CHECK(controlled.payload == "5");
    // A TAB becomes a space, so a line starting with one is junk, not a reply.
    const GtpReply tabbed = frame({"\t= 5", "? no", ""});
    CHECK(tabbed.junk_lines == 1);
    CHECK(tabbed.kind == GtpReply::Kind::failure);
    CHECK(tabbed.payload == "no");
    // Lines of control bytes, spaces and TABs only are blank: skipped before the reply, its end after.
    const GtpReply blanks = frame({"\x01", " \t\x1f", "= 7", "\t\x02 "});
    CHECK(blanks.kind == GtpReply::Kind::success);
    CHECK(blanks.junk_lines == 0);
    CHECK(blanks.extra_lines == 0);
    CHECK(blanks.payload == "7");
    // The payload is normalised and trimmed; a control byte between marker and text leaves it glued.
    const GtpReply glued = frame({"=\x01" "5\t", ""});
    CHECK(glued.glued);
    CHECK(glued.payload == "5");
    CHECK(frame({"= \x7f" "A\tS ", ""}).payload == "A S");
    CHECK(frame({"? \x01", ""}).payload.empty());
    // An escape sequence's remains are text: junk before the reply.
    CHECK(frame({"\x1b[0m= 7", "= 8", ""}).junk_lines == 1);
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
    for (std::size_t seat = 0; seat < result.participants.size(); ++seat) {
        const auto& p = result.participants[seat];
        record << "# seat " << seat << " score " << p.score << " rank " << p.rank << "\n";
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
    for (const auto& [variant, rewrite] : variants) {
        const char* name = variant;  // CAPTURE's lambda cannot name a structured binding (clang 14)
        CAPTURE(name);
        const RefereeResult r = run_with(rewrite);
        CHECK(r.end_reason == "completed");
        for (std::size_t s = 0; s < 4; ++s) {
            CHECK(r.participants[s].score == clean.participants[s].score);
            CHECK(r.participants[s].status == SeatStatus::ok);
        }
    }
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

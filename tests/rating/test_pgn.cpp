// PGN tag reading as bayeselo's readpgn does it (rating.md A.2 "PGN reader").
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/user_error.hpp"
#include "rating/pgn_reader.hpp"

using namespace arb::rating;

TEST_CASE("tags give white, black and the result, movetext and comments are skipped") {
    std::istringstream in(
        "[Event \"test\"]\n[Site \"?\"]\n[Date \"2026.11.22\"]\n[Round \"1\"]\n"
        "[White \"Engine A\"]\n[Black \"Engine \\\"B\\\"\"]\n[Result \"1-0\"]\n\n"
        "1. e4 {a comment with [brackets]\n[White \"not a tag\"] still comment} e5 ; rest\n1-0\n\n"
        "[White \"Engine \\\"B\\\"\"]\r\n[Black \"Engine A\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1/2-1/2\r\n\n"
        "[White \"C\"]\n[Black \"Engine A\"]\n[Result \"0-1\"]\n\n0-1\n"
        "[White \"C\"]\n[Black \"Engine A\"]\n[Result \"*\"]\n\n*\n"
        "[White \"C\"]\n[Black \"D\"]\n\n*\n");
    ResultSet rs;
    const PgnReadStats stats = read_pgn(in, "test.pgn", rs);
    CHECK(stats.games == 3);
    CHECK(stats.ignored == 2);
    REQUIRE(rs.players().size() == 3);
    CHECK(rs.players()[0] == "Engine A");
    CHECK(rs.players()[1] == "Engine \"B\"");
    CHECK(rs.games()[0] == PairwiseGame{0, 1, Outcome::white_wins});
    CHECK(rs.games()[1] == PairwiseGame{1, 0, Outcome::draw});
    CHECK(rs.games()[2] == PairwiseGame{2, 0, Outcome::black_wins});
}

TEST_CASE("tag sections without movetext between them are separate games") {
    std::istringstream in("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[White \"b\"]\n[Black \"a\"]\n[Result \"1-0\"]\n");
    ResultSet rs;
    CHECK(read_pgn(in, "x.pgn", rs).games == 2);
    CHECK(rs.games()[1] == PairwiseGame{1, 0, Outcome::white_wins});
}

TEST_CASE("an unknown result token is an error naming file and line") {
    std::istringstream in("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n[White \"a\"]\n[Black \"b\"]\n"
                          "[Result \"2-0\"]\n\n2-0\n");
    ResultSet rs;
    try {
        read_pgn(in, "games.pgn", rs);
        FAIL("accepted 2-0");
    } catch (const arb::UserError& e) {
        CHECK(std::string(e.what()) == "games.pgn:7: unknown result '2-0' (expected 1-0, 0-1, 1/2-1/2 or *)");
    }
}

TEST_CASE("a missing file is a user error") {
    ResultSet rs;
    CHECK_THROWS_AS(read_pgn_file("/nonexistent/games.pgn", rs), arb::UserError);
}

TEST_CASE("a line longer than a megabyte is an error naming its line, read or not to its end") {
    for (const bool ends_with_newline : {true, false}) {
        std::string text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"";
        text.append((std::size_t{1} << 20) + 10, 'x');
        if (ends_with_newline) text += "\"]\n";
        std::istringstream in(text);
        ResultSet rs;
        try {
            read_pgn(in, "huge.pgn", rs);
            FAIL("accepted a 1 MiB line");
        } catch (const arb::UserError& e) {
            CHECK(std::string(e.what()) == "huge.pgn:7: line longer than 1048576 bytes (not a PGN file?)");
        }
    }
    // A line just under the limit is read.
    std::string text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0 {";
    text.append((std::size_t{1} << 20) - 10, 'x');
    text += "}\n";
    std::istringstream in(text);
    ResultSet rs;
    CHECK(read_pgn(in, "long.pgn", rs).games == 1);
}

namespace {

namespace fs = std::filesystem;

// What one reading route made of a text: the games and players, or the error's message.
struct ReadOutcome {
    std::vector<std::string> players;
    std::vector<PairwiseGame> games;
    std::int64_t counted = 0, ignored = 0;
    std::string error;
    friend bool operator==(const ReadOutcome&, const ReadOutcome&) = default;
};

template <typename Read>
ReadOutcome outcome_of(Read read) {
    ReadOutcome out;
    ResultSet rs;
    try {
        const PgnReadStats stats = read(rs);
        out.counted = stats.games;
        out.ignored = stats.ignored;
    } catch (const arb::UserError& e) {
        out.error = e.what();
    }
    out.players = rs.players();
    out.games = rs.games();
    return out;
}

// A scratch file under the build tree, named as the errors will name it.
std::string scratch_file(const std::string& name, const std::string& text) {
    const fs::path dir = fs::path(ARBITER_BINARY_DIR) / "test-tmp" / "rating" / "pgn-files";
    fs::create_directories(dir);
    const fs::path path = dir / name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path.string();
}

}  // namespace

TEST_CASE("a mapped file, a text in memory and a stream give the same games and the same errors") {
    const std::string game = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n";
    const std::vector<std::string> texts = {
        "",
        game,
        game + "[White \"b\"]\r\n[Black \"a\\\\x\"]\r\n[Result \"1/2-1/2\"]\r\n\r\n1/2-1/2",  // no final newline
        game + "[White \"b\"]\n[Black \"a\"]\n[Res",                                     // truncated in a tag
        game + "[White \"b\"]\n[Black \"a\"]\n[Result \"0-1",                           // truncated in a value
        game + "[White \"b\"]\n[Black \"a\"]\n[Result \"0-1\"]\n\n{a comment never closed\n",
        game + "[White \"caf\xc3\xa9\"]\n[Black \"\xff\"]\n[Result \"0-1\"]\n",          // invalid UTF-8 name
        game + "[White \"b\"]\n[Black \"a\"]\n[Result \"2-0\"]\n",
        game + "[White \"b\"]\n[Black \"a\"]\n[Result \"1-0\"]\n[Result \"0-1\"]\n[White \"a\"]\n[Black \"b\"]\n",
        game + "[White \"b\\\"]\n",                                                      // escaped closing quote
        "%escape line\n" + game + "[White \"a\"]\n[Black \"a\"]\n[Result \"1-0\"]\n",      // a player against itself
    };
    int k = 0;
    for (const std::string& text : texts) {
        const std::string name = "case" + std::to_string(k++) + ".pgn";
        const std::string path = scratch_file(name, text);
        CAPTURE(text);
        const ReadOutcome from_stream = outcome_of([&](ResultSet& rs) {
            std::istringstream in(text);
            return read_pgn(in, path, rs);
        });
        const ReadOutcome from_text = outcome_of([&](ResultSet& rs) { return read_pgn_text(text, path, rs); });
        const ReadOutcome from_file = outcome_of([&](ResultSet& rs) { return read_pgn_file(path, rs); });
        CHECK(from_text == from_stream);
        CHECK(from_file == from_stream);
    }
    // The truncated value is an error naming the file and line; so is the unknown result.
    CHECK(outcome_of([&](ResultSet& rs) { return read_pgn_file(scratch_file("cut.pgn", texts[4]), rs); }).error ==
          scratch_file("cut.pgn", texts[4]) + ":9: unterminated PGN tag value");
}

TEST_CASE("a mapped file with a line over the limit is an error naming its line") {
    std::string text = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"";
    text.append((std::size_t{1} << 20) + 10, 'x');
    const std::string path = scratch_file("huge.pgn", text);
    const ReadOutcome out = outcome_of([&](ResultSet& rs) { return read_pgn_file(path, rs); });
    CHECK(out.error == path + ":7: line longer than 1048576 bytes (not a PGN file?)");
}

namespace {

// About `bytes` of games between 97 + 89 names; `extra(g)` may add text after game g.
template <typename Extra>
std::string many_games(std::size_t bytes, Extra extra) {
    std::string text;
    for (int g = 0; text.size() < bytes; ++g) {
        text += "[Event \"long\"]\n[White \"P" + std::to_string(g % 97) + "\"]\n[Black \"Q" + std::to_string(g % 89) +
                "\"]\n[Result \"" + (g % 3 == 0 ? "1-0" : g % 3 == 1 ? "0-1" : "1/2-1/2") + "\"]\n\n*\n\n";
        text += extra(g);
    }
    return text;
}

// The stream reader's outcome, and the mapped file's and the in-memory text's, which must equal it.
ReadOutcome check_routes_agree(const std::string& name, const std::string& text) {
    const std::string path = scratch_file(name, text);
    std::istringstream in(text);
    const ReadOutcome from_stream = outcome_of([&](ResultSet& rs) { return read_pgn(in, path, rs); });
    CHECK(outcome_of([&](ResultSet& rs) { return read_pgn_file(path, rs); }) == from_stream);
    CHECK(outcome_of([&](ResultSet& rs) { return read_pgn_text(text, path, rs); }) == from_stream);
    return from_stream;
}

}  // namespace

TEST_CASE("a large file (read in two halves, pages given back as it goes) gives what one pass gives") {
    // Over 4 MiB: the halves are read at once, and pages already read are released.
    const ReadOutcome plain = check_routes_agree("large.pgn", many_games(std::size_t{9} << 20, [](int) { return ""; }));
    CHECK(plain.error.empty());
    CHECK(plain.counted > 60000);
    // New names in the second half only: numbered after the first half's, in order of appearance.
    const ReadOutcome late_names = check_routes_agree("late.pgn", many_games(std::size_t{9} << 20, [](int g) {
        return g > 70000 && g % 1000 == 0 ? "[White \"N" + std::to_string(g) + "\"]\n[Black \"P1\"]\n[Result \"1-0\"]\n\n*\n\n"
                                          : std::string();
    }));
    CHECK(late_names.players.size() > plain.players.size());
}

TEST_CASE("a large file whose middle is inside a comment, or with errors in either half, reads as one pass") {
    const std::size_t size = std::size_t{9} << 20;
    // A comment from well before the middle to well after it, holding lines that look like tags.
    const ReadOutcome comment = check_routes_agree("comment.pgn", many_games(size, [](int g) {
        if (g >= 40000 && g < 80000) return std::string(g == 40000 ? "{ opened\n" : "") + "[White \"Z\"]\n1-0\n";
        return std::string(g == 80000 ? "closed }\n" : "");
    }));
    CHECK(comment.error.empty());
    CHECK(std::find(comment.players.begin(), comment.players.end(), "Z") == comment.players.end());
    // An unknown result late in the second half: its line, as one pass reports it.
    const ReadOutcome late_error = check_routes_agree("late-error.pgn", many_games(size, [](int g) {
        return g == 90000 ? std::string("[White \"a\"]\n[Black \"b\"]\n[Result \"3-0\"]\n\n") : std::string();
    }));
    CHECK(late_error.error.find("unknown result '3-0'") != std::string::npos);
    // Errors in both halves: the first one.
    const ReadOutcome both = check_routes_agree("both-errors.pgn", many_games(size, [](int g) {
        return g == 10000 || g == 90000 ? std::string("[White \"a\"]\n[Black \"b\"]\n[Result \"" +
                                                      std::to_string(g) + "\"]\n\n")
                                        : std::string();
    }));
    CHECK(both.error.find("unknown result '10000'") != std::string::npos);
}

TEST_CASE("a PGN file that is not a regular file (a named pipe) is read as a stream") {
    const std::string text = "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n0-1\n";
    const std::string fifo = scratch_file("unused", "") + ".fifo";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
    ResultSet rs;
    const PgnReadStats stats = read_pgn_file(fifo, rs);
    writer.join();
    CHECK(stats.games == 1);
    CHECK(rs.games()[0] == PairwiseGame{0, 1, Outcome::black_wins});
}

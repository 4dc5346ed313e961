// PGN tag reading as bayeselo's readpgn does it (rating.md A.2 "PGN reader").
#include <doctest/doctest.h>

#include <sstream>

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

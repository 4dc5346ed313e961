// PGN result files (`arbiter rate --pgn`): the stream reader, and the in-memory reader that
// mapped files go through, which must find the same games and the same errors.
#include <sstream>
#include <stdexcept>

#include "core/user_error.hpp"
#include "rating/pgn_reader.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(pgn) {
    arb::rating::ResultSet from_text;
    std::string text_error;
    try {
        arb::rating::read_pgn_text(data, "games.pgn", from_text);
    } catch (const arb::UserError& e) {
        text_error = e.what();
    }
    std::istringstream in{std::string(data)};
    arb::rating::ResultSet from_stream;
    try {
        arb::rating::read_pgn(in, "games.pgn", from_stream);
    } catch (const arb::UserError& e) {
        if (text_error != e.what()) throw std::logic_error("the PGN text reader's error differs from the stream's");
        throw;
    }
    if (!text_error.empty() || from_text.games() != from_stream.games() || from_text.players() != from_stream.players())
        throw std::logic_error("the PGN text reader's games differ from the stream's");
}

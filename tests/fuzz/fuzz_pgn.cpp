// PGN result files (`arbiter rate --pgn`).
#include <sstream>

#include "rating/pgn_reader.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(pgn) {
    std::istringstream in{std::string(data)};
    arb::rating::ResultSet results;
    arb::rating::read_pgn(in, "games.pgn", results);
}

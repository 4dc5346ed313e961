#pragma once
// Reads game results from PGN tag pairs (White, Black, Result), as bayeselo's readpgn does,
// so users can compare our ratings with bayeselo's and Ordo's on their own files.
#include <istream>
#include <string>
#include <string_view>

#include "rating/result_set.hpp"

namespace arb::rating {

struct PgnReadStats {
    std::int64_t games = 0;    // games with a decisive result or a draw
    std::int64_t ignored = 0;  // `*` or no Result tag (bayeselo ignores them too)
};

// Appends the games of one PGN stream to `results`. `source` names the file in errors.
// Throws UserError on an unknown result token ("games.pgn:123: unknown result '2-0'").
PgnReadStats read_pgn(std::istream& in, const std::string& source, ResultSet& results);
// The same over a whole text in memory (a mapped file): the same games, the same errors.
PgnReadStats read_pgn_text(std::string_view text, const std::string& source, ResultSet& results);
// A regular file is mapped and read in place; anything else (a pipe) is read as a stream.
PgnReadStats read_pgn_file(const std::string& path, ResultSet& results);

}  // namespace arb::rating

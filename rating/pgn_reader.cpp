// PGN tag reader (rating.md A.2 "PGN reader"): only the White, Black and Result tags matter;
// movetext is skipped. Results 1-0, 0-1 and 1/2-1/2 count; `*` or a missing Result is ignored,
// as bayeselo does; any other token is an error naming the file and line.
#include "rating/pgn_reader.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb::rating {
namespace {

// PGN's export format keeps lines under 80 characters; one game on a single line is still far
// below this. A longer line is not PGN, and keeping it whole would take unbounded memory.
constexpr std::size_t kMaxPgnLineBytes = 1 << 20;

struct PendingGame {
    std::optional<std::string> white, black, result;
    std::int64_t line = 0;  // where its tag section starts
    bool has_tags() const { return white || black || result; }
};

class PgnParser {
public:
    PgnParser(const std::string& source, ResultSet& results) : source_(source), results_(results) {}

    void feed_line(std::string_view line) {
        ++line_number_;
        std::size_t start = 0;
        while (start < line.size() && (line[start] == ' ' || line[start] == '\t' || line[start] == '\r')) ++start;
        line.remove_prefix(start);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        if (in_comment_) {
            skip_movetext(line);
            return;
        }
        if (!line.empty() && line.front() == '%') return;  // PGN escape line
        if (!line.empty() && line.front() == '[') {
            if (seen_movetext_) finish_game();  // tags after movetext: a new game begins
            parse_tag(line);
            return;
        }
        skip_movetext(line);
    }

    PgnReadStats finish() {
        finish_game();
        return stats_;
    }

    [[noreturn]] void line_too_long() const {
        throw UserError(fmt::format("{}:{}: line longer than {} bytes (not a PGN file?)", source_, line_number_ + 1,
                                    kMaxPgnLineBytes));
    }

private:
    void skip_movetext(std::string_view line) {
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char ch = line[i];
            if (in_comment_) {
                if (ch == '}') in_comment_ = false;
                continue;
            }
            if (ch == '{') in_comment_ = true;
            else if (ch == ';') break;  // comment to end of line
            else if (ch != ' ' && ch != '\t') seen_movetext_ = true;
        }
    }

    void parse_tag(std::string_view line) {
        // [Name "value"]; the value may contain \" and \\ escapes.
        std::size_t i = 1;
        while (i < line.size() && line[i] == ' ') ++i;
        const std::size_t name_start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '"' && line[i] != ']') ++i;
        const std::string_view name = line.substr(name_start, i - name_start);
        while (i < line.size() && line[i] == ' ') ++i;
        if (i >= line.size() || line[i] != '"')
            throw UserError(fmt::format("{}:{}: malformed PGN tag '{}'", source_, line_number_, line));
        ++i;
        std::string value;
        bool closed = false;
        for (; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 1 < line.size()) {
                value.push_back(line[++i]);
            } else if (line[i] == '"') {
                closed = true;
                break;
            } else {
                value.push_back(line[i]);
            }
        }
        if (!closed) throw UserError(fmt::format("{}:{}: unterminated PGN tag value", source_, line_number_));

        if (name == "White") {
            if (game_.white) finish_game();
            if (!game_.has_tags()) game_.line = line_number_;
            game_.white = valid_utf8(value);
        } else if (name == "Black") {
            if (game_.black) finish_game();
            if (!game_.has_tags()) game_.line = line_number_;
            game_.black = valid_utf8(value);
        } else if (name == "Result") {
            if (game_.result) finish_game();
            if (!game_.has_tags()) game_.line = line_number_;
            game_.result = std::move(value);
        }
    }

    void finish_game() {
        seen_movetext_ = false;
        if (!game_.has_tags()) return;
        PendingGame game = std::move(game_);
        game_ = {};
        std::optional<Outcome> outcome;
        if (!game.result || *game.result == "*") {
            ++stats_.ignored;
            return;
        }
        if (*game.result == "1-0") outcome = Outcome::white_wins;
        else if (*game.result == "0-1") outcome = Outcome::black_wins;
        else if (*game.result == "1/2-1/2") outcome = Outcome::draw;
        else
            throw UserError(fmt::format("{}:{}: unknown result '{}' (expected 1-0, 0-1, 1/2-1/2 or *)", source_,
                                        game.line, *game.result));
        if (!game.white || !game.black)
            throw UserError(fmt::format("{}:{}: game with a result but no {} tag", source_, game.line,
                                        game.white ? "Black" : "White"));
        if (*game.white == *game.black) {
            // A player against itself carries no rating information.
            ++stats_.ignored;
            return;
        }
        results_.add_game(*game.white, *game.black, *outcome);
        ++stats_.games;
    }

    const std::string& source_;
    ResultSet& results_;
    PendingGame game_;
    PgnReadStats stats_;
    std::int64_t line_number_ = 0;
    bool in_comment_ = false;
    bool seen_movetext_ = false;
};

}  // namespace

PgnReadStats read_pgn(std::istream& in, const std::string& source, ResultSet& results) {
    PgnParser parser(source, results);
    // Large files: read in big blocks and split lines by hand; getline on an istream is the
    // slow part of a naive reader.
    std::string buffer(1 << 20, '\0');
    std::string carry;
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        std::string_view chunk(buffer.data(), got);
        std::size_t start = 0;
        for (std::size_t nl; (nl = chunk.find('\n', start)) != std::string_view::npos; start = nl + 1) {
            if (carry.size() + (nl - start) > kMaxPgnLineBytes) parser.line_too_long();
            if (!carry.empty()) {
                carry.append(chunk.substr(start, nl - start));
                parser.feed_line(carry);
                carry.clear();
            } else {
                parser.feed_line(chunk.substr(start, nl - start));
            }
        }
        if (carry.size() + (got - start) > kMaxPgnLineBytes) parser.line_too_long();
        carry.append(chunk.substr(start));
    }
    if (!carry.empty()) parser.feed_line(carry);
    return parser.finish();
}

PgnReadStats read_pgn_file(const std::string& path, ResultSet& results) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError(fmt::format("cannot read PGN file '{}'", path));
    return read_pgn(in, path, results);
}

}  // namespace arb::rating

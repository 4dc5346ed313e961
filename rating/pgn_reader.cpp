// PGN tag reader (rating.md A.2 "PGN reader"): only the White, Black and Result tags matter;
// movetext is skipped. Results 1-0, 0-1 and 1/2-1/2 count; `*` or a missing Result is ignored,
// as bayeselo does; any other token is an error naming the file and line.
#include "rating/pgn_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/unique_fd.hpp"
#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb::rating {
namespace {

// The descriptor already opened, read as a stream: opening a named pipe a second time would wait
// for a second writer, and what the first one wrote would be lost.
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd) : fd_(fd) {}

protected:
    int_type underflow() override {
        ssize_t n;
        do n = ::read(fd_, buffer_, sizeof buffer_);
        while (n < 0 && errno == EINTR);
        if (n <= 0) return traits_type::eof();
        setg(buffer_, buffer_, buffer_ + n);
        return traits_type::to_int_type(buffer_[0]);
    }

private:
    int fd_;
    char buffer_[64 * 1024];
};

// PGN's export format keeps lines under 80 characters; one game on a single line is still far
// below this. A longer line is not PGN, and keeping it whole would take unbounded memory.
constexpr std::size_t kMaxPgnLineBytes = 1 << 20;

// One tag's value, kept in a buffer reused from game to game (no allocation per game).
struct TagValue {
    std::string text;
    bool present = false;
    void set(std::string_view value) {
        text.assign(value);
        present = true;
    }
};

struct PendingGame {
    TagValue white, black, result;
    std::int64_t line = 0;  // where its tag section starts
    bool has_tags() const { return white.present || black.present || result.present; }
    void clear() { white.present = black.present = result.present = false; }
};

// A player's name as stored: the tag's text when it is valid UTF-8, else its escaped copy.
std::string_view stored_name(const std::string& text, std::string& escaped) {
    if (std::all_of(text.begin(), text.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }) ||
        is_valid_utf8(text))
        return text;
    escaped = valid_utf8(text);
    return escaped;
}

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

    // Where a fresh parser would be: no comment open, and the pending game (if any) would be
    // closed by the next tag line (movetext seen) or there is none.
    bool between_games() const { return !in_comment_ && (seen_movetext_ || !game_.has_tags()); }

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
        // The value runs to the first quote not escaped; most have no escape and are used as they stand.
        const std::size_t value_start = i;
        while (i < line.size() && line[i] != '"' && line[i] != '\\') ++i;
        std::string_view value = line.substr(value_start, i - value_start);
        if (i < line.size() && line[i] == '\\') {
            unescaped_.assign(value);
            for (; i < line.size() && line[i] != '"'; ++i) {
                if (line[i] == '\\' && i + 1 < line.size()) ++i;
                unescaped_.push_back(line[i]);
            }
            value = unescaped_;
        }
        if (i >= line.size()) throw UserError(fmt::format("{}:{}: unterminated PGN tag value", source_, line_number_));

        TagValue* slot = name == "White" ? &game_.white : name == "Black" ? &game_.black
                         : name == "Result"                             ? &game_.result
                                                                         : nullptr;
        if (slot == nullptr) return;
        if (slot->present) finish_game();  // the same tag again: a new game begins
        if (!game_.has_tags()) game_.line = line_number_;
        slot->set(value);
    }

    void finish_game() {
        seen_movetext_ = false;
        if (!game_.has_tags()) return;
        const PendingGame& game = game_;
        struct Clear {
            PendingGame& game;
            ~Clear() { game.clear(); }
        } clear_after{game_};
        const std::string_view result = game.result.text;
        if (!game.result.present || result == "*") {
            ++stats_.ignored;
            return;
        }
        Outcome outcome;
        if (result == "1-0") outcome = Outcome::white_wins;
        else if (result == "0-1") outcome = Outcome::black_wins;
        else if (result == "1/2-1/2") outcome = Outcome::draw;
        else
            throw UserError(fmt::format("{}:{}: unknown result '{}' (expected 1-0, 0-1, 1/2-1/2 or *)", source_,
                                        game.line, game.result.text));
        if (!game.white.present || !game.black.present)
            throw UserError(fmt::format("{}:{}: game with a result but no {} tag", source_, game.line,
                                        game.white.present ? "Black" : "White"));
        const std::string_view white = stored_name(game.white.text, escaped_white_);
        const std::string_view black = stored_name(game.black.text, escaped_black_);
        if (white == black) {
            // A player against itself carries no rating information.
            ++stats_.ignored;
            return;
        }
        results_.add_game(white, black, outcome);
        ++stats_.games;
    }

    const std::string& source_;
    ResultSet& results_;
    PendingGame game_;
    std::string unescaped_, escaped_white_, escaped_black_;  // reused buffers
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

namespace {

// Texts from this size on are read in two halves at once (two cores).
constexpr std::size_t kSplitFromBytes = std::size_t{4} << 20;

// Feeds the lines of `text` to the parser; `consumed(from, to)` is told, now and then, which
// bytes of it have been read since the last time (so that a mapping can give those pages back).
template <typename Consumed>
void feed_lines(std::string_view text, PgnParser& parser, Consumed consumed) {
    constexpr std::size_t kReportEvery = std::size_t{4} << 20;
    const char* const begin = text.data();
    std::size_t reported = 0;
    while (!text.empty()) {
        const void* nl = std::memchr(text.data(), '\n', std::min(text.size(), kMaxPgnLineBytes + 1));
        const std::size_t length =
            nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
        if (length > kMaxPgnLineBytes) parser.line_too_long();
        parser.feed_line(text.substr(0, length));
        text.remove_prefix(nl != nullptr ? length + 1 : length);
        if (const auto done = static_cast<std::size_t>(text.data() - begin); done - reported >= kReportEvery) {
            consumed(reported, done);
            reported = done;
        }
    }
}

// The games of the second half, read on their own: names numbered in their own order of first
// appearance, then renumbered into `results` in that order, which is the order reading the
// whole text in one go gives them.
void append_games(const ResultSet& half, ResultSet& results) {
    std::vector<int> index(half.players().size());
    for (std::size_t p = 0; p < index.size(); ++p) index[p] = results.player_index(half.players()[p]);
    results.reserve_games(results.games().size() + half.games().size());
    for (const PairwiseGame& g : half.games()) results.add_game(index[g.white], index[g.black], g.outcome);
}

// Reads `text` as one pass of the parser would, on two cores when it is large: the second half,
// from the first line after the middle that opens a tag, is read by a second thread. Its games
// are kept only when the first half ends between two games (movetext seen or no tag pending,
// no comment open: exactly the state a fresh parser starts in) and the second half read without
// error; otherwise the first half's parser simply goes on through the second half, so that
// games, names and the first error (with its line) are those of a single pass.
template <typename Consumed>
PgnReadStats read_text(std::string_view text, const std::string& source, ResultSet& results, Consumed consumed) {
    PgnParser parser(source, results);
    const std::size_t middle = text.size() >= kSplitFromBytes ? text.find("\n[", text.size() / 2) : text.npos;
    if (middle == text.npos) {
        feed_lines(text, parser, consumed);
        return parser.finish();
    }
    const std::size_t split = middle + 1;
    ResultSet second_results;
    PgnReadStats second_stats;
    bool second_ok = false;
    {
        std::jthread second([&] {
            try {
                PgnParser second_parser(source, second_results);
                feed_lines(text.substr(split), second_parser,
                           [&](std::size_t from, std::size_t to) { consumed(split + from, split + to); });
                second_stats = second_parser.finish();
                second_ok = true;
            } catch (const std::exception&) {
                // Read again by the first half's parser below, which reports it where it is.
            }
        });
        feed_lines(text.substr(0, split), parser, consumed);
    }
    if (!parser.between_games() || !second_ok) {
        feed_lines(text.substr(split), parser, [&](std::size_t from, std::size_t to) { consumed(split + from, split + to); });
        return parser.finish();
    }
    PgnReadStats stats = parser.finish();
    append_games(second_results, results);
    stats.games += second_stats.games;
    stats.ignored += second_stats.ignored;
    return stats;
}

}  // namespace

PgnReadStats read_pgn_text(std::string_view text, const std::string& source, ResultSet& results) {
    return read_text(text, source, results, [](std::size_t, std::size_t) {});
}

namespace {

// A read-only map of a whole file, unmapped on scope exit.
class MappedFile {
public:
    MappedFile(void* data, std::size_t size) : data_(data), size_(size) {}
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() { ::munmap(data_, size_); }
    std::string_view text() const { return {static_cast<const char*>(data_), size_}; }

private:
    void* data_;
    std::size_t size_;
};

}  // namespace

PgnReadStats read_pgn_file(const std::string& path, ResultSet& results) {
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) throw UserError(fmt::format("cannot read PGN file '{}'", path));
    struct stat info {};
    if (::fstat(fd.get(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
        // A regular file is read in place: the page cache is the buffer, nothing is copied, and
        // the pages are the kernel's to drop again (they are clean).
        const auto size = static_cast<std::size_t>(info.st_size);
        void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
        if (data != MAP_FAILED) {
            const MappedFile file(data, size);
            ::madvise(data, size, MADV_SEQUENTIAL);
            // The pages read are dropped as the reading goes: memory stays flat in the file's size.
            // (A page shared with the other half is read back from the page cache if needed.)
            const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
            return read_text(file.text(), path, results, [&](std::size_t from, std::size_t to) {
                const std::size_t first = (from + page - 1) / page * page, last = to / page * page;
                if (last > first) ::madvise(static_cast<char*>(data) + first, last - first, MADV_DONTNEED);
            });
        }
    }
    // Pipes, terminals and files that cannot be mapped: read as a stream.
    DescriptorBuffer buffer(fd.get());
    std::istream in(&buffer);
    return read_pgn(in, path, results);
}

}  // namespace arb::rating

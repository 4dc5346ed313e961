#include "rules/planowanie/planowanie_protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace arb::planowanie {
namespace {

// A control byte other than TAB: normalisation drops it.
bool dropped(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 32 && c != '\t') || u == 127;
}

// The framer and the parser ask two things of a received line once normalised: is it blank, and
// does it start with a reply's marker. Both are read off the line as received, without building
// the normalised copy (every line of every reply passes here).
bool blank_once_normalized(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || dropped(c); });
}

// Where the '='/'?' that starts the normalised line stands in the line as received; npos when
// the normalised line starts with anything else.
std::size_t marker_at(std::string_view line) {
    const auto first = std::find_if_not(line.begin(), line.end(), dropped);
    if (first == line.end() || (*first != '=' && *first != '?')) return std::string_view::npos;
    return static_cast<std::size_t>(first - line.begin());
}

}  // namespace

std::string set_deck_command(const Config& config) { return "set_deck " + config.set_deck_args() + "\n"; }

std::string set_players_command(int players, int seat) { return fmt::format("set_players {} {}\n", players, seat); }

std::string set_game_command(const Config& config) { return "set_game " + config.set_game_args() + "\n"; }

std::string set_cards_command(const Deck& deck, std::span<const Card> hand) {
    std::string text = fmt::format("set_cards {}", hand.size());
    for (const Card& c : hand) text += " " + deck.text(c);
    return text + "\n";
}

std::string time_left_command(std::int64_t ms) { return fmt::format("time_left {}\n", ms); }

std::string declare_command(int player, int tricks) { return fmt::format("declare {} {}\n", player, tricks); }

std::string play_command(const Deck& deck, int player, Card card) {
    return fmt::format("play {} {}\n", player, deck.text(card));
}

std::string normalize_line(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (char c : line) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\t')
            out.push_back(' ');
        else if (u >= 32 && u != 127)
            out.push_back(c);
    }
    return out;
}

ReplyFramer gtp_framer() {
    // The progress lives in the closure (small and trivially copyable, so std::function keeps it
    // without an allocation); a table calls one copy of the framer for the whole request.
    struct Progress {
        bool started = false;
        int junk = 0;
        int extra = 0;
    };
    return [progress = Progress{}](std::string_view line) mutable {
        if (!progress.started) {
            if (blank_once_normalized(line)) return Frame::skip;  // stray blank lines before a reply
            if (marker_at(line) != std::string_view::npos) {
                progress.started = true;
                return Frame::keep;
            }
            // Debug output on stdout: kept so the parser can count it, never taken as the answer.
            return ++progress.junk > kMaxJunkLines ? Frame::end_keep : Frame::keep;
        }
        if (blank_once_normalized(line)) return Frame::end_skip;
        return ++progress.extra >= kMaxReplyLines ? Frame::end_keep : Frame::keep;
    };
}

GtpReply parse_gtp_reply(const std::vector<std::string>& lines) {
    GtpReply reply;
    bool started = false;
    for (const std::string& line : lines) {
        if (started) {
            ++reply.extra_lines;
            continue;
        }
        if (blank_once_normalized(line)) continue;
        const std::size_t marker = marker_at(line);
        if (marker == std::string_view::npos) {
            ++reply.junk_lines;
            continue;
        }
        started = true;
        reply.kind = line[marker] == '=' ? GtpReply::Kind::success : GtpReply::Kind::failure;
        // Normalisation goes byte by byte, so the text after the marker normalises on its own.
        std::string rest = normalize_line(std::string_view(line).substr(marker + 1));
        reply.glued = !rest.empty() && rest.front() != ' ';
        const auto last = rest.find_last_not_of(' ');
        rest.erase(last == std::string::npos ? 0 : last + 1);
        rest.erase(0, rest.find_first_not_of(' '));
        reply.payload = std::move(rest);
    }
    return reply;
}

std::optional<GtpReply> read_gtp_reply(const Reply& reply) {
    GtpReply gtp = parse_gtp_reply(reply.lines);
    if (gtp.kind == GtpReply::Kind::missing) return std::nullopt;
    return gtp;
}

std::optional<int> parse_declaration(std::string_view payload) {
    if (payload.empty() || payload.size() > 9) return std::nullopt;
    int value = 0;
    const auto [end, ec] = std::from_chars(payload.data(), payload.data() + payload.size(), value);
    if (ec != std::errc() || end != payload.data() + payload.size()) return std::nullopt;
    return value;
}

}  // namespace arb::planowanie

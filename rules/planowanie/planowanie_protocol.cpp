#include "rules/planowanie/planowanie_protocol.hpp"

#include <fmt/format.h>

#include <charconv>
#include <memory>

namespace arb::planowanie {
namespace {

bool is_blank(std::string_view line) { return line.find_first_not_of(' ') == std::string_view::npos; }

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(' ');
    return text.substr(first, last - first + 1);
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
    // Shared so the std::function stays copyable; one framer serves one request.
    struct Progress {
        bool started = false;
        int junk = 0;
        int extra = 0;
    };
    auto progress = std::make_shared<Progress>();
    return [progress](std::string_view raw) {
        const std::string line = normalize_line(raw);
        if (!progress->started) {
            if (is_blank(line)) return Frame::skip;  // stray blank lines before a reply
            if (line.front() == '=' || line.front() == '?') {
                progress->started = true;
                return Frame::keep;
            }
            // Debug output on stdout: kept so the parser can count it, never taken as the answer.
            return ++progress->junk > kMaxJunkLines ? Frame::end_keep : Frame::keep;
        }
        if (is_blank(line)) return Frame::end_skip;
        return ++progress->extra >= kMaxReplyLines ? Frame::end_keep : Frame::keep;
    };
}

GtpReply parse_gtp_reply(const std::vector<std::string>& lines) {
    GtpReply reply;
    bool started = false;
    for (const std::string& raw : lines) {
        const std::string line = normalize_line(raw);
        if (started) {
            ++reply.extra_lines;
            continue;
        }
        if (is_blank(line)) continue;
        if (line.front() != '=' && line.front() != '?') {
            ++reply.junk_lines;
            continue;
        }
        started = true;
        reply.kind = line.front() == '=' ? GtpReply::Kind::success : GtpReply::Kind::failure;
        const std::string_view rest = std::string_view(line).substr(1);
        reply.glued = !rest.empty() && rest.front() != ' ';
        reply.payload = std::string(trim(rest));
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

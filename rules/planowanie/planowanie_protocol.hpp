#pragma once
// What a Planowanie bot reads and writes (seed 000, "Protokół"; framing per planowanie.md
// section 3.2 and RULINGS.md "Planowanie"): the seed's commands, one line each, and the GTP-style
// reply to each of them: '=' or '?', the result, then an empty line.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/seat.hpp"
#include "rules/planowanie/planowanie_engine.hpp"

namespace arb::planowanie {

// --- the commands ---------------------------------------------------------------------------

std::string set_deck_command(const Config& config);          // "set_deck V C"
std::string set_players_command(int players, int seat);      // "set_players n i"
std::string set_game_command(const Config& config);          // "set_game d c1 s1 ... cd sd"
std::string set_cards_command(const Deck& deck, std::span<const Card> hand);  // "set_cards c K1 ... Kc"
std::string time_left_command(std::int64_t ms);              // "time_left t"
std::string declare_command(int player, int tricks);         // "declare i l"
std::string play_command(const Deck& deck, int player, Card card);  // "play i K"
inline constexpr std::string_view kGenDeclare = "gen_declare\n";
inline constexpr std::string_view kGenMove = "gen_move\n";
inline constexpr std::string_view kQuit = "quit\n";

// --- the replies ----------------------------------------------------------------------------

// Caps on what a bot may print for one reply before it counts as a protocol violation.
inline constexpr int kMaxJunkLines = 100;   // non-blank lines before the '='/'?' line
inline constexpr int kMaxReplyLines = 100;  // lines after it before the empty line

// Normalisation of a received line (planowanie.md 3.2): control bytes other than TAB dropped,
// TAB turned into a space.
std::string normalize_line(std::string_view line);

// Cuts one GTP reply: blank lines before it are skipped, junk lines before the '='/'?' line are
// kept (for diagnostics), the reply ends at its empty line (strict: a reply without one runs the
// bot out of time). Gives up (completes) when a cap above is exceeded.
ReplyFramer gtp_framer();

struct GtpReply {
    enum class Kind { success, failure, missing };
    Kind kind = Kind::missing;  // missing = no '='/'?' line within the caps
    std::string payload;        // the text after the marker, trimmed
    int junk_lines = 0;         // non-blank lines before the marker line
    int extra_lines = 0;        // lines between the marker line and the empty line
    bool glued = false;         // "=5": no space after the marker (accepted, noted)
};
GtpReply parse_gtp_reply(const std::vector<std::string>& lines);

// The reader for the seat driver: a framed reply's lines as a GTP reply; nullopt when they hold
// no '='/'?' line (Kind::missing).
std::optional<GtpReply> read_gtp_reply(const Reply& reply);

// A declaration payload: one decimal integer, nothing else. nullopt when malformed.
std::optional<int> parse_declaration(std::string_view payload);

}  // namespace arb::planowanie

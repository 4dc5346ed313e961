#pragma once
// A Koehandel match's player logs (the folder --replay names): one log per seat, that seat's side
// of the conversation as the referee had it, and match.json naming the match. The referee writes
// them; `arbiter verify koehandel` and the viewer replay them through the engine.
//
// A log's lines, in the order they happened: "> REQUEST" (a request path, koehandel_protocol.hpp),
// "< REPLY" (the first line of a reply; one that starts with '(' or a backslash is written behind a
// backslash, so no reply reads as the next kind) or "< (timeout)" (a failed reply), "# default:
// WHAT" (a default action the engine applied), "# fault ..." and "# out: ..." (the referee's notes
// of failed replies and of a seat put out by them).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/seat.hpp"
#include "rules/game.hpp"
#include "rules/koehandel/koehandel_play.hpp"

namespace arb::koehandel {

// The file beside the player logs that names the match they came from.
inline constexpr const char* kMatchFile = "match.json";

// Writes <folder>/match.json for a match about to be played.
void write_match_file(const std::filesystem::path& folder, const MatchRequest& request);

// The logs of a match being played, seat s in <folder>/player<s+1>-<name>.log. With no folder
// nothing is written.
class PlayerLogs {
public:
    PlayerLogs(const std::filesystem::path& folder, const std::vector<std::string>& names);

    void request(int seat, const std::string& text);
    void reply(int seat, std::string_view first_line);
    void failed_reply(int seat, ReplyStatus status);
    void default_action(int seat, const std::string& what);
    void note(int seat, const std::string& text);  // "# fault ..." or "# out: ..."
    // Writes out what is buffered, so that the files hold every line logged so far, whole.
    void flush();

private:
    void write(int seat, std::string_view prefix, std::string_view text);

    std::vector<std::unique_ptr<std::ofstream>> files_;
};

// A seat's log as read back.
struct SeatLog {
    std::filesystem::path path;
    std::vector<std::string> lines;
    std::size_t next = 0;

    bool at(std::string_view prefix) const { return next < lines.size() && lines[next].starts_with(prefix); }
};

// UserError when the folder has no log for the seat.
SeatLog read_seat_log(const std::filesystem::path& folder, int seat);
// The market every request names, from the log's first request; UserError if there is none.
std::uint64_t logged_market(const SeatLog& log);

// The first line where a log and the replayed game part.
struct LogDifference {
    std::filesystem::path path;
    std::size_t line = 0;  // 1-based; one past the last line when the log ended
    std::string has;       // the log's line, or "its end"
    std::string want;      // the replayed game's line, or "the end of the game"
};

// The seats answer as their logs say, and every request, notification and default action the
// engine makes must be the next line of that seat's log (a LogDifference is thrown where it is
// not). The referee's notes of failed replies are skipped: the table decides those, not the engine.
class LoggedPlayers : public Players {
public:
    LoggedPlayers(std::vector<SeatLog> logs, int bots, std::uint64_t market);

    void tell(int seat, const Message& message) override;
    std::optional<Fields> ask(int seat, const Message& message) override;
    void adjudicated(int seat, const std::string& what) override;

    // Every log read to its end once the game is over; else a LogDifference wanting "the end of the game".
    void check_finished();

protected:
    // What the replay reads, in order, for a viewer.
    virtual void on_note(int seat, const std::string& line) { (void)seat, (void)line; }  // "# fault ..." / "# out: ..."
    virtual void on_tell(int seat, const Message& message) { (void)seat, (void)message; }
    // reply: the logged reply; nullopt for a failed one or none (a house seat, a seat that is out)
    virtual void on_ask(int seat, const Message& message, const std::optional<std::string>& reply) {
        (void)seat, (void)message, (void)reply;
    }
    virtual void on_default(int seat, const std::string& what) { (void)seat, (void)what; }

private:
    void skip_notes(int seat);
    void expect(int seat, const std::string& want);
    [[noreturn]] void differ(int seat, const std::string& want) const;

    std::vector<SeatLog> logs_;
    int bots_;
    std::uint64_t market_;
};

}  // namespace arb::koehandel

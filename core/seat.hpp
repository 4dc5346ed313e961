#pragma once
// What a referee sees of the bots: a Table of seats it can send text to and ask for replies.
// A referee never touches a process, a pipe or a socket; the arbiter core implements Table
// over bot processes (stdin/stdout pipes, loopback TCP, HTTP GET) and tests implement it
// in-process (ScriptedTable).
//
// Reads return a status instead of throwing; a failed reply carries its typed fault. A seat whose reply failed (timeout, closed,
// overflow) is retired by the table at once: its process is stopped, later requests to it
// return not_running, and a late answer can never be read as the reply to a later request.
// HTTP seats are the exception: each request is its own exchange, so a failed one only closes
// its connection and the seat stays while its process runs (a remote url= seat always stays);
// the referee counts failures and retires the seat when its game says so.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/time_control.hpp"

namespace arb {

// How a seat ended up. "ok" = still playing or finished normally.
enum class SeatStatus {
    ok,
    crashed,   // exited, closed its output, or broke the channel
    timeout,   // no complete reply within its time
    illegal,   // the referee rejected a move or reply (set by the referee through retire())
    killed,    // stopped by the arbiter for another reason (memory limit, output flood, match end)
    forfeited, // never started: the tournament gave up on the bot (--max-faults, a failed pre-flight)
};
const char* to_string(SeatStatus status);

enum class ReplyStatus {
    ok,
    timeout,      // deadline passed before the framer said the reply was complete
    closed,       // end of file / connection closed / process exited before the reply completed
    overflow,     // a line longer than the cap, or more reply bytes than allowed
    not_running,  // the seat was already retired
};
const char* to_string(ReplyStatus status);

// How a failed reply ends its seat, typed once by the table that ran the request, the same for
// every game (docs/fault-matrix.md). Each game keeps its own words where its recorded games have
// them (the Ants replay's "crashed"/"timeout", SamurAI's -1 plans); the record's status is this.
struct SeatFault {
    SeatStatus status = SeatStatus::ok;
    // Why, when the status is `killed`: the table's reason ("memory limit of 400 MiB exceeded",
    // "line longer than 1048576 bytes"), else a short one of ours. "" for the other statuses,
    // whose word says it all; the referee adds where it happened.
    std::string reason;

    bool failed() const { return status != SeatStatus::ok; }
};

// The status a failed reply retires its seat with: timeout -> timeout, overflow (a line or a
// reply over the cap) -> killed, closed and not_running -> crashed; ok -> ok.
SeatStatus status_after(ReplyStatus reply);

// The one mapping from a failed reply to its fault, given how its seat stands after the reply
// (`seat`, retired for `detail`):
//   - the table stopped the seat for a limit (killed: memory, line length, a bot that does not
//     read its input): killed, with that reason;
//   - else the reply's own status_after (overflow: killed, "reply over the size limit" when the
//     table gave no reason); not_running: the status the seat was retired with.
// An ok reply is no fault. The seat may still play (an HTTP seat stays after a failed request);
// the referee decides whether to retire it.
SeatFault reply_fault(ReplyStatus reply, SeatStatus seat, std::string_view detail);

struct Reply {
    ReplyStatus status = ReplyStatus::ok;
    std::vector<std::string> lines;  // lines the framer kept, '\r' and '\n' removed
    std::string partial;             // incomplete trailing text when the reply failed (diagnostics)
    std::chrono::nanoseconds wall{0};  // time charged: request written -> reply complete
    std::chrono::nanoseconds cpu{0};   // CPU the bot's processes used in that interval (0 if unknown)
    // Request::fresh_reply: complete lines the bot had sent before the request was written
    // (they answered nothing), dropped unread; the first kMaxDroppedKept are kept here.
    std::vector<std::string> dropped;
    std::size_t dropped_count = 0;
    // A failed reply's fault (reply_fault), typed by the table; none for an ok reply (an optional:
    // a reply carries no string of its own for it, as most replies are ok).
    std::optional<SeatFault> fault;

    bool ok() const { return status == ReplyStatus::ok; }
    explicit operator bool() const { return ok(); }
    // The first kept line, or "" when there is none.
    const std::string& first_line() const;
};

// Decides, line by line, which received lines belong to the reply and where it ends.
// Lines arrive with '\r' and '\n' removed. A framer is created fresh for every request.
enum class Frame {
    keep,      // part of the reply, more to come
    skip,      // not part of the reply (blank line, debug junk), more to come
    end_keep,  // the reply is complete, and this line is part of it
    end_skip,  // the reply is complete, this line is a terminator and is dropped
};
using ReplyFramer = std::function<Frame(std::string_view line)>;

// The first non-blank line is the whole reply (SamurAI plans, smart-dog moves).
ReplyFramer one_line_framer();
// Every line up to a line equal to `terminator` (which is dropped): Ants "go".
ReplyFramer terminator_framer(std::string terminator);

struct Request {
    int seat = 0;
    std::string text;     // written as is; include the trailing '\n' the protocol needs
    ReplyFramer framer;
    // Lines the bot sent after its previous reply and before this request are not part of the
    // reply: they are dropped (and reported in Reply::dropped), so surplus lines can never
    // shift later replies (smart-dog, lines after a turn's `end`). Line channels only; a line
    // still in flight when the request is written is read as part of the reply.
    bool fresh_reply = false;
};
inline constexpr std::size_t kMaxDroppedKept = 16;

// What the table knows about one seat.
struct SeatInfo {
    int bot = 0;            // index of the bot (participant) in the match request
    std::string bot_name;
    std::string label;      // e.g. "p0", "team0-samurai"; used in logs and transcripts
};

class Table {
public:
    virtual ~Table() = default;

    virtual int size() const = 0;
    virtual const SeatInfo& info(int seat) const = 0;
    virtual SeatStatus status(int seat) const = 0;
    bool alive(int seat) const { return status(seat) == SeatStatus::ok; }
    // Why the seat was retired, in words ("memory limit of 400 MiB exceeded"); "" while it plays.
    virtual std::string retire_detail(int seat) const = 0;

    // Writes text without waiting for a reply. Not charged to any clock. false if the seat is
    // retired or the write failed (the seat is then retired as crashed).
    virtual bool send(int seat, std::string_view text) = 0;

    // Writes the request, then reads until the framer says the reply is complete, the seat's
    // deadline passes or the channel fails. The time from the end of the write to the end of
    // the reply is charged to the seat's clock.
    virtual Reply ask(int seat, std::string_view text, ReplyFramer framer) = 0;

    // Simultaneous turn: writes every request, then waits on all seats at once, each against
    // its own deadline. Replies come back in the order of the requests.
    virtual std::vector<Reply> ask_all(std::span<const Request> requests) = 0;

    // Time left of the seat's match budget (or of its per-request limit when it has no budget),
    // for protocols that tell bots their time (Planowanie time_left). Never negative.
    virtual Millis time_left(int seat) const = 0;

    // The referee's decision to stop a seat (illegal move, match over). Stops its process.
    virtual void retire(int seat, SeatStatus why, std::string_view detail) = 0;

    // A free-form line in the match transcript (if one is being written).
    virtual void note(std::string_view text) = 0;

    // The requests from here on belong to step `step` of the game as its viewer numbers its
    // frames: the exchange whose outcome frame `step` draws. The transcript marks it
    // ("# step K"), so that what each bot was sent, replied and printed can be found per step
    // (`arbiter show --step`, the viewer's bot panel, `arbiter diff`). No transcript: nothing.
    virtual void mark_step(int step) { (void)step; }
};

}  // namespace arb

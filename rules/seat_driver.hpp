#pragma once
// The one way a referee asks its seats. It sends the protocol's text, collects every reply of the
// round, each failed one with the fault its table typed (core/seat.hpp reply_fault), and hands
// each good reply to the game's protocol to read. The referee then applies the whole turn at once, with every
// fault already typed: no referee reads a failed reply or maps a status itself.
//
//   auto answers = ask_round(table, requests, read_plan);   // all seats at once
//   for (auto& a : answers) {
//       if (a.failed()) { ...a.fault().status, a.fault().reason...; continue; }
//       if (!a.move) { ...unreadable reply...; continue; }
//       plans[a.seat] = *a.move;
//   }
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/seat.hpp"

namespace arb {

// One seat's answer to one request.
template <class Move>
struct SeatAnswer {
    int seat = 0;
    Reply reply;               // as the table gave it: lines, dropped lines, wall time, a partial line, fault
    std::optional<Move> move;  // the protocol's reading of an ok reply; nullopt = unreadable or failed

    SeatAnswer() = default;
    SeatAnswer(int seat, Reply&& reply) : seat(seat), reply(std::move(reply)) {}

    // Status ok unless the reply failed; then the fault its table typed (crashed when it typed
    // none). Read off the reply rather than kept beside it: the copy made every answer 40 bytes
    // larger, and a round of 4 seats' answers outgrew what malloc keeps in its per-thread cache
    // (1,032 bytes): 1.2 % more instructions in the Planowanie referee.
    const SeatFault& fault() const {
        static const SeatFault none;
        static const SeatFault untyped{SeatStatus::crashed, ""};
        if (reply.ok()) return none;
        return reply.fault ? *reply.fault : untyped;
    }
    // fault().failed() without its statics: reply_fault never types a failed reply ok.
    bool failed() const { return !reply.ok(); }
    bool readable() const { return move.has_value(); }
};

// A protocol's reader: `Read(const Reply&) -> std::optional<Move>`, called on ok replies only.
template <class Read>
using MoveOf = typename std::invoke_result_t<Read&, const Reply&>::value_type;

// Completes an answer whose seat and reply are set: an ok reply read (a failed one keeps the
// fault its table typed).
template <class Move, class Read>
void complete(SeatAnswer<Move>& answer, Read& read) {
    if (answer.reply.ok()) answer.move = read(std::as_const(answer.reply));
}

// Asks every request's seat at once (Table::ask_all); the answers come in request order, each
// built where it stays, around the reply moved in.
template <class Read>
std::vector<SeatAnswer<MoveOf<Read>>> ask_round(Table& table, std::span<const Request> requests, Read read) {
    std::vector<SeatAnswer<MoveOf<Read>>> answers;
    if (requests.empty()) return answers;
    std::vector<Reply> replies = table.ask_all(requests);
    answers.reserve(replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i) {
        complete(answers.emplace_back(requests[i].seat, std::move(replies[i])), read);
    }
    return answers;
}

// Asks one seat (Table::ask): for games whose seats answer in turn.
template <class Read>
SeatAnswer<MoveOf<Read>> ask_seat(Table& table, int seat, std::string_view text, ReplyFramer framer, Read read) {
    SeatAnswer<MoveOf<Read>> answer{seat, table.ask(seat, text, std::move(framer))};
    complete(answer, read);
    return answer;
}

// The reader for a protocol whose moves are the reply's lines as they came (Ants, smart-dog) or
// which reads nothing from a reply (an acknowledgement).
inline std::optional<std::vector<std::string>> reply_lines(const Reply& reply) { return reply.lines; }
inline std::optional<std::monostate> nothing_to_read(const Reply&) { return std::monostate{}; }

}  // namespace arb

#pragma once
// The one way a referee asks its seats. It sends the protocol's text, collects every reply of the
// round, maps each failed reply to a seat status once (seat_faults.hpp) and hands each good reply
// to the game's protocol to read. The referee then applies the whole turn at once, with every
// fault already typed: no referee reads a failed reply or maps a status itself.
//
//   auto answers = ask_round(table, requests, read_plan);   // all seats at once
//   for (auto& a : answers) {
//       if (a.failed()) { ...a.fault.status, a.fault.reason...; continue; }
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
#include "rules/seat_faults.hpp"

namespace arb {

// One seat's answer to one request.
template <class Move>
struct SeatAnswer {
    int seat = 0;
    Reply reply;               // as the table gave it: lines, dropped lines, wall time, a partial line
    SeatFault fault;           // status ok unless the reply failed
    std::optional<Move> move;  // the protocol's reading of an ok reply; nullopt = unreadable or failed

    bool failed() const { return fault.failed(); }
    bool readable() const { return move.has_value(); }
};

// A protocol's reader: `Read(const Reply&) -> std::optional<Move>`, called on ok replies only.
template <class Read>
using MoveOf = typename std::invoke_result_t<Read&, const Reply&>::value_type;

// Maps and reads one reply the table gave for `seat`.
template <class Read>
SeatAnswer<MoveOf<Read>> answer_of(const Table& table, int seat, Reply reply, Read& read) {
    SeatAnswer<MoveOf<Read>> answer;
    answer.seat = seat;
    answer.fault = seat_fault(table, seat, reply.status);
    if (!answer.failed()) answer.move = read(std::as_const(reply));
    answer.reply = std::move(reply);
    return answer;
}

// Asks every request's seat at once (Table::ask_all); the answers come in request order.
template <class Read>
std::vector<SeatAnswer<MoveOf<Read>>> ask_round(Table& table, std::span<const Request> requests, Read read) {
    std::vector<SeatAnswer<MoveOf<Read>>> answers;
    if (requests.empty()) return answers;
    std::vector<Reply> replies = table.ask_all(requests);
    answers.reserve(replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i)
        answers.push_back(answer_of(table, requests[i].seat, std::move(replies[i]), read));
    return answers;
}

// Asks one seat (Table::ask): for games whose seats answer in turn.
template <class Read>
SeatAnswer<MoveOf<Read>> ask_seat(Table& table, int seat, std::string_view text, ReplyFramer framer, Read read) {
    return answer_of(table, seat, table.ask(seat, text, std::move(framer)), read);
}

// The reader for a protocol whose moves are the reply's lines as they came (Ants, smart-dog) or
// which reads nothing from a reply (an acknowledgement).
inline std::optional<std::vector<std::string>> reply_lines(const Reply& reply) { return reply.lines; }
inline std::optional<std::monostate> nothing_to_read(const Reply&) { return std::monostate{}; }

}  // namespace arb

#include "core/table/scripted_table.hpp"

#include <charconv>
#include <iterator>
#include <string_view>

namespace arb {

ScriptedTable::ScriptedTable(std::vector<Seat> seats)
    : seats_(std::move(seats)), status_(seats_.size(), SeatStatus::ok), details_(seats_.size()) {}

bool ScriptedTable::send(int seat, std::string_view text) {
    if (status_.at(seat) != SeatStatus::ok) return false;
    transcript_.push_back(std::to_string(seat) + "> " + std::string(text));
    // A send is delivered like a request whose answer nobody reads.
    (void)seats_.at(seat).bot(text);
    return true;
}

Reply ScriptedTable::ask(int seat, std::string_view text, ReplyFramer framer) {
    Reply reply;
    ask_into(reply, seat, text, std::move(framer));
    return reply;
}

std::vector<Reply> ScriptedTable::ask_all(std::span<const Request> requests) {
    // Each reply made where it stays, as the process table does: no Reply moved, then destroyed,
    // per request.
    std::vector<Reply> replies(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i)
        ask_into(replies[i], requests[i].seat, requests[i].text, requests[i].framer);
    return replies;
}

void ScriptedTable::ask_into(Reply& reply, int seat, std::string_view text, ReplyFramer framer) {
    if (status_.at(seat) != SeatStatus::ok) {
        reply.status = ReplyStatus::not_running;
        reply.fault = reply_fault(reply.status, status_.at(seat), details_.at(seat));
        return;
    }
    transcript_.push_back(std::to_string(seat) + "> " + std::string(text));
    ScriptedAnswer answer = seats_.at(seat).bot(text);
    std::string_view rest = answer.output;
    bool complete = false;
    while (!complete && !rest.empty()) {
        const auto nl = rest.find('\n');
        if (nl == std::string_view::npos) {
            reply.partial = std::string(rest);
            break;
        }
        std::string line(rest.substr(0, nl));
        rest.remove_prefix(nl + 1);
        std::erase(line, '\r');
        transcript_.push_back(std::to_string(seat) + "< " + line);
        switch (framer(line)) {
            case Frame::keep: reply.lines.push_back(line); break;
            case Frame::skip: break;
            case Frame::end_keep: reply.lines.push_back(line); complete = true; break;
            case Frame::end_skip: complete = true; break;
        }
    }
    if (!complete) {
        // An incomplete reply from a scripted bot behaves like a bot that stops talking.
        reply.status = answer.fault == ReplyStatus::ok ? ReplyStatus::timeout : answer.fault;
        retire(seat, status_after(reply.status), to_string(reply.status));
        reply.fault = reply_fault(reply.status, status_.at(seat), details_.at(seat));
    }
}

void ScriptedTable::mark_step(int step) {
    // Made in one buffer: a match marks every step, and "# step " + std::to_string(step) cost
    // three strings a mark.
    constexpr std::string_view kMark = "# step ";
    char line[kMark.size() + 12];
    kMark.copy(line, kMark.size());
    char* end = std::to_chars(line + kMark.size(), std::end(line), step).ptr;
    transcript_.emplace_back(line, end);
}

void ScriptedTable::retire(int seat, SeatStatus why, std::string_view detail) {
    if (status_.at(seat) != SeatStatus::ok) return;
    status_.at(seat) = why;
    details_.at(seat) = std::string(detail);
    transcript_.push_back("# seat " + std::to_string(seat) + " retired: " + to_string(why) + " " +
                          std::string(detail));
}

}  // namespace arb

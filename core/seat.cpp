#include "core/seat.hpp"

namespace arb {

const char* to_string(SeatStatus status) {
    switch (status) {
        case SeatStatus::ok: return "ok";
        case SeatStatus::crashed: return "crashed";
        case SeatStatus::timeout: return "timeout";
        case SeatStatus::illegal: return "illegal";
        case SeatStatus::killed: return "killed";
        case SeatStatus::forfeited: return "forfeited";
    }
    return "?";
}

const char* to_string(ReplyStatus status) {
    switch (status) {
        case ReplyStatus::ok: return "ok";
        case ReplyStatus::timeout: return "timeout";
        case ReplyStatus::closed: return "closed";
        case ReplyStatus::overflow: return "overflow";
        case ReplyStatus::not_running: return "not_running";
    }
    return "?";
}

SeatStatus status_after(ReplyStatus reply) {
    switch (reply) {
        case ReplyStatus::ok: return SeatStatus::ok;
        case ReplyStatus::timeout: return SeatStatus::timeout;
        case ReplyStatus::overflow: return SeatStatus::killed;
        case ReplyStatus::closed:
        case ReplyStatus::not_running: return SeatStatus::crashed;
    }
    return SeatStatus::crashed;
}

SeatFault reply_fault(ReplyStatus reply, SeatStatus seat, std::string_view detail) {
    if (reply == ReplyStatus::ok) return {};
    if (seat == SeatStatus::killed) return {SeatStatus::killed, detail.empty() ? "stopped by the arbiter" : std::string(detail)};
    if (reply == ReplyStatus::not_running) return {seat == SeatStatus::ok ? SeatStatus::crashed : seat, ""};
    const SeatStatus status = status_after(reply);
    if (status != SeatStatus::killed) return {status, ""};
    // A table that stopped the flood says how long the line was.
    const bool said = !detail.empty() && detail != to_string(ReplyStatus::overflow);
    return {SeatStatus::killed, said ? std::string(detail) : "reply over the size limit"};
}

const std::string& Reply::first_line() const {
    static const std::string empty;
    return lines.empty() ? empty : lines.front();
}

ReplyFramer one_line_framer() {
    return [](std::string_view line) {
        return line.find_first_not_of(" \t") == std::string_view::npos ? Frame::skip : Frame::end_keep;
    };
}

ReplyFramer terminator_framer(std::string terminator) {
    return [terminator = std::move(terminator)](std::string_view line) {
        std::string_view trimmed = line;
        while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.remove_suffix(1);
        return trimmed == terminator ? Frame::end_skip : Frame::keep;
    };
}

}  // namespace arb

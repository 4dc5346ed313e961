#pragma once
// A Table whose seats are C++ functions: for referee tests that need no processes, and for
// deterministic checks of a referee's text. Each seat's function receives every request text
// (and every send()) and returns what the bot would print; the framer then cuts the reply out of
// it exactly as it would from a pipe. A seat may also answer with a fault.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/seat.hpp"

namespace arb {

struct ScriptedAnswer {
    std::string output;                         // what the bot prints (may span several lines)
    ReplyStatus fault = ReplyStatus::ok;        // timeout / closed: the reply fails this way
    static ScriptedAnswer text(std::string s) { return {std::move(s), ReplyStatus::ok}; }
    static ScriptedAnswer timeout() { return {"", ReplyStatus::timeout}; }
    static ScriptedAnswer crash() { return {"", ReplyStatus::closed}; }
};

// Called for each ask(); `sent` holds the text of earlier send() calls since the last ask.
using ScriptedBot = std::function<ScriptedAnswer(std::string_view request)>;

class ScriptedTable final : public Table {
public:
    struct Seat {
        SeatInfo info;
        ScriptedBot bot;
        Millis budget{Millis::max()};
    };
    explicit ScriptedTable(std::vector<Seat> seats);

    int size() const override { return static_cast<int>(seats_.size()); }
    const SeatInfo& info(int seat) const override { return seats_.at(seat).info; }
    SeatStatus status(int seat) const override { return status_.at(seat); }
    bool send(int seat, std::string_view text) override;
    Reply ask(int seat, std::string_view text, ReplyFramer framer) override;
    std::vector<Reply> ask_all(std::span<const Request> requests) override;
    Millis time_left(int seat) const override { return seats_.at(seat).budget; }
    void retire(int seat, SeatStatus why, std::string_view detail) override;
    void note(std::string_view text) override { transcript_.push_back("# " + std::string(text)); }
    void mark_step(int step) override;

    // Everything sent to and received from each seat, in order, as "seat> text" / "seat< text".
    const std::vector<std::string>& transcript() const { return transcript_; }
    std::string retire_detail(int seat) const override { return details_.at(seat); }

private:
    // ask() into a reply made by the caller.
    void ask_into(Reply& reply, int seat, std::string_view text, ReplyFramer framer);

    std::vector<Seat> seats_;
    std::vector<SeatStatus> status_;
    std::vector<std::string> details_;
    std::vector<std::string> transcript_;
};

}  // namespace arb

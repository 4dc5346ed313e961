#include "core/table/transcript_steps.hpp"

#include <charconv>
#include <fstream>
#include <string_view>
#include <system_error>

#include "core/user_error.hpp"

namespace arb {
namespace {

constexpr std::string_view kSeatHeader = "# seat ";
constexpr std::string_view kStepMark = "# step ";
constexpr std::string_view kCharged = "charged ";

class StepReader {
public:
    StepReader(const std::filesystem::path& path, StepNumbering numbering) : path_(path), numbering_(numbering) {}

    void line(std::string_view text, std::size_t number) {
        number_ = number;
        if (text.starts_with(kSeatHeader)) return header(text.substr(kSeatHeader.size()));
        if (text.starts_with("#") || text.empty()) return;  // other headers
        // "%10.6f REST": the time, a space, then the event.
        const std::size_t space = text.find_first_not_of(' ');
        const std::size_t after_time = space == std::string_view::npos ? space : text.find(' ', space);
        if (after_time == std::string_view::npos) fail("no time and event");
        event(text.substr(after_time + 1));
    }

    TranscriptSteps done() {
        for (auto& [step, io] : steps_.steps) io.seats.resize(steps_.labels.size());
        return std::move(steps_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw UserError(path_.string() + ":" + std::to_string(number_) + ": not a match transcript line (" + what + ")");
    }

    // "# seat LABEL: bot NAME: COMMAND"
    void header(std::string_view rest) {
        const std::size_t colon = rest.find(": bot ");
        if (colon == std::string_view::npos) fail("a seat header without its bot");
        std::string_view bot = rest.substr(colon + 6);
        bot = bot.substr(0, bot.find(": "));
        steps_.labels.emplace_back(rest.substr(0, colon));
        steps_.bots.emplace_back(bot);
        exchange_.push_back(0);
        previous_.push_back(0);
    }

    void event(std::string_view rest) {
        const bool by_exchange = numbering_ == StepNumbering::exchanges;
        if (rest.starts_with(kStepMark)) return by_exchange ? void() : mark(rest);
        if (rest.starts_with("# ")) {
            if (!by_exchange) current().notes.emplace_back(rest.substr(2));
            return;
        }
        const std::size_t space = rest.find(' ');
        if (space == std::string_view::npos || space + 2 > rest.size()) fail("no seat event");
        const int seat = seat_index(rest.substr(0, space));
        const char direction = rest[space + 1];
        std::string_view text = rest.substr(std::min(rest.size(), space + 3));
        const auto s = static_cast<std::size_t>(seat);
        if (numbering_ == StepNumbering::exchanges) {
            // A request opens the seat's next exchange; its lines run on until the reply.
            if (direction == '>' && previous_[s] != '>') ++exchange_[s];
            if (direction == '>' || direction == '<') previous_[s] = direction;
            step_ = exchange_[s];
        }
        SeatStepIo& io = current().seats[s];
        switch (direction) {
            case '>': io.sent.emplace_back(text); break;
            case '<': io.reply.emplace_back(text); break;
            case '!': io.printed.emplace_back(text); break;
            case '#': return seat_event(io, text);
            default: fail("an unknown direction");
        }
    }

    void seat_event(SeatStepIo& io, std::string_view text) {
        if (const auto ms = charged_ms_of(text)) io.charged_ms = io.charged_ms.value_or(0) + *ms;
        else io.events.emplace_back(text);
    }

    void mark(std::string_view event) {
        const auto step = step_mark_of(event);
        if (!step) fail("a step mark without its number");
        steps_.marked = true;
        step_ = *step;
    }

    int seat_index(std::string_view label) const {
        for (std::size_t i = 0; i < steps_.labels.size(); ++i)
            if (steps_.labels[i] == label) return static_cast<int>(i);
        fail("a seat '" + std::string(label) + "' without a header");
    }

    StepIo& current() {
        StepIo& io = steps_.steps[step_];
        if (io.seats.size() < steps_.labels.size()) io.seats.resize(steps_.labels.size());
        return io;
    }

    const std::filesystem::path& path_;
    StepNumbering numbering_;
    std::vector<int> exchange_;   // by seat, exchanges: its current request's number
    std::vector<char> previous_;  // by seat, exchanges: the direction of its last '>' or '<' line
    TranscriptSteps steps_;
    int step_ = -1;
    std::size_t number_ = 0;
};

}  // namespace

std::optional<int> step_mark_of(std::string_view event) {
    if (!event.starts_with(kStepMark)) return std::nullopt;
    const std::string_view number = event.substr(kStepMark.size());
    int step = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), step);
    if (ec != std::errc{} || end != number.data() + number.size() || step < 0) return std::nullopt;
    return step;
}

std::optional<double> charged_ms_of(std::string_view seat_event) {
    if (!seat_event.starts_with(kCharged) || !seat_event.ends_with(" ms")) return std::nullopt;
    const std::string_view number = seat_event.substr(kCharged.size(), seat_event.size() - kCharged.size() - 3);
    double ms = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), ms);
    if (ec != std::errc{} || end != number.data() + number.size()) return std::nullopt;
    return ms;
}

int TranscriptSteps::seat_of(const std::string& label) const {
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (labels[i] == label) return static_cast<int>(i);
    return -1;
}

TranscriptSteps read_transcript_steps(const std::filesystem::path& path, StepNumbering numbering) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw UserError(path.string() + ": cannot read the transcript: " + ec.message());
    if (size > kMaxTranscriptBytes)
        throw UserError(path.string() + ": a transcript of " + std::to_string(size) + " bytes is over the " +
                        std::to_string(kMaxTranscriptBytes) + "-byte limit");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError(path.string() + ": cannot read the transcript");
    StepReader reader(path, numbering);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
        // A last line without its newline is one the table is writing now (a running match's
        // transcript, read by the live page): what is written whole is read, that line is not.
        if (in.eof()) break;
        reader.line(line, ++number);
    }
    return reader.done();
}

}  // namespace arb

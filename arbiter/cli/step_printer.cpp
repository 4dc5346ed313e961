#include "arbiter/cli/step_printer.hpp"

#include <ostream>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arbiter/match/match_locator.hpp"
#include "arbiter/match/match_steps.hpp"
#include "core/table/transcript_steps.hpp"
#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb::cli {
namespace {

void print_lines(std::ostream& out, const char* heading, char mark, const std::vector<std::string>& lines) {
    if (lines.empty()) return;
    out << fmt::format("  {} ({} line{}):\n", heading, lines.size(), lines.size() == 1 ? "" : "s");
    for (const auto& line : lines) out << "    " << mark << ' ' << terminal_text(line) << "\n";
}

void print_seat(std::ostream& out, int step, int seat, const std::string& bot, const SeatStepIo& io) {
    out << fmt::format("step {}, seat {} ({}){}\n", step, seat, terminal_text(bot),
                       io.charged_ms ? fmt::format(": {:.3f} ms charged", *io.charged_ms) : std::string());
    if (io.empty()) {
        out << "  nothing sent or received at this step\n";
        return;
    }
    print_lines(out, "sent", '>', io.sent);
    print_lines(out, "replied", '<', io.reply);
    print_lines(out, "printed on stderr", '!', io.printed);
    print_lines(out, "events", '#', io.events);
}

nlohmann::ordered_json seat_json(int step, int seat, const std::string& bot, const SeatStepIo& io) {
    nlohmann::ordered_json j;
    j["step"] = step;
    j["seat"] = seat;
    j["bot"] = bot;
    j["sent"] = io.sent;
    j["reply"] = io.reply;
    j["stderr"] = io.printed;
    j["events"] = io.events;
    j["charged_ms"] = io.charged_ms ? nlohmann::ordered_json(*io.charged_ms) : nlohmann::ordered_json(nullptr);
    return j;
}

std::string steps_there(const MatchSteps& steps) {
    int first = -1, last = -1;
    for (const auto& [k, io] : steps.steps) {
        if (k < 0) continue;
        if (first < 0) first = k;
        last = k;
    }
    return first < 0 ? "it marks none" : fmt::format("its steps are {}..{}", first, last);
}

}  // namespace

void print_steps(std::ostream& out, const MatchRecord& record, const std::filesystem::path& record_path,
                 const StepQuery& query) {
    const auto transcript = find_record_file(record_path, record.transcript_path, "transcript.txt");
    if (!transcript)
        throw UserError(fmt::format("{}: the match's transcript is not there ({}); a match played without one has no "
                                    "steps to show",
                                    record_path.string(), record.transcript_path.empty() ? "none recorded" : record.transcript_path));
    const MatchSteps steps = steps_by_participant(read_transcript_steps(*transcript), record);
    const int bots = static_cast<int>(steps.bots.size());
    if (query.seat && (*query.seat < 0 || *query.seat >= bots))
        throw UserError(fmt::format("--seat {}: the match has seats 0..{}", *query.seat, bots - 1));
    if (!steps.marked && query.step)
        throw UserError(fmt::format("{}: the transcript has no step marks ({} wrote none)", transcript->string(), record.game));
    if (query.step && !steps.steps.contains(*query.step))
        throw UserError(fmt::format("--step {}: not in the match ({})", *query.step, steps_there(steps)));
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const auto& [step, seats] : steps.steps) {
        if ((query.step && step != *query.step) || (!query.step && step < 0 && steps.marked)) continue;
        for (int s = 0; s < bots; ++s) {
            if (query.seat && s != *query.seat) continue;
            const SeatStepIo& io = seats[static_cast<std::size_t>(s)];
            if (!query.step && io.empty()) continue;  // a bot's whole match: only its exchanges
            if (query.json) all.push_back(seat_json(step, s, steps.bots[static_cast<std::size_t>(s)], io));
            else print_seat(out, step, s, steps.bots[static_cast<std::size_t>(s)], io);
        }
        const auto notes = steps.notes.find(step);
        if (!query.json && query.step && notes != steps.notes.end()) print_lines(out, "referee", '#', notes->second);
    }
    if (query.json) out << all.dump(2) << "\n";
}

}  // namespace arb::cli

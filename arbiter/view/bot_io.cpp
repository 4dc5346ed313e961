#include "arbiter/view/bot_io.hpp"

#include <fmt/format.h>

#include "arbiter/match/match_steps.hpp"
#include "core/table/transcript_steps.hpp"

namespace arb::view {
namespace {

std::size_t bytes_of(const std::vector<std::string>& lines) {
    std::size_t n = 0;
    for (const auto& l : lines) n += l.size() + 1;
    return n;
}

nlohmann::json seat_json(const SeatStepIo& io, std::size_t& bytes) {
    std::vector<std::string> sent(io.sent.begin(), io.sent.begin() + static_cast<std::ptrdiff_t>(std::min(io.sent.size(), kSentLinesShown)));
    if (io.sent.size() > kSentLinesShown)
        sent.push_back(fmt::format("[{} more lines sent: arbiter show prints them all]", io.sent.size() - kSentLinesShown));
    bytes += bytes_of(sent) + bytes_of(io.reply) + bytes_of(io.printed) + bytes_of(io.events);
    nlohmann::json j;
    j["sent"] = std::move(sent);
    j["reply"] = io.reply;
    j["stderr"] = io.printed;
    j["notes"] = io.events;
    j["charged_ms"] = io.charged_ms ? nlohmann::json(*io.charged_ms) : nlohmann::json(nullptr);
    return j;
}

}  // namespace

nlohmann::json bot_io_json(const std::filesystem::path& transcript, const MatchRecord& record) {
    const MatchSteps steps = steps_by_participant(read_transcript_steps(transcript), record);
    nlohmann::json out;
    out["seats"] = steps.bots;
    out["steps"] = nlohmann::json::object();
    out["notes"] = nlohmann::json::object();
    out["cut"] = steps.marked ? "" : "this match's transcript has no step marks: its game marks none";
    std::size_t bytes = 0;
    for (const auto& [step, seats] : steps.steps) {
        if (step < 0) continue;  // before the first step: the bots' starts
        if (bytes > kBotIoBytes) {
            out["cut"] = fmt::format("steps from {} on are not in this page (over {} MiB); arbiter show --step K prints "
                                     "any step",
                                     step, kBotIoBytes >> 20);
            break;
        }
        nlohmann::json per_seat = nlohmann::json::array();
        for (const SeatStepIo& io : seats)
            per_seat.push_back(io.empty() && !io.charged_ms ? nlohmann::json(nullptr) : seat_json(io, bytes));
        out["steps"][std::to_string(step)] = std::move(per_seat);
        if (const auto it = steps.notes.find(step); it != steps.notes.end()) {
            bytes += bytes_of(it->second);
            out["notes"][std::to_string(step)] = it->second;
        }
    }
    return out;
}

}  // namespace arb::view

#include "arbiter/match/match_steps.hpp"

#include <algorithm>

namespace arb {
namespace {

// Table seat -> participant: by bot name where names are unique, else seat i is participant i.
std::vector<int> owners(const TranscriptSteps& transcript, const MatchRecord& record) {
    std::vector<std::string> names;
    for (const auto& p : record.participants) names.push_back(p.bot);
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    const bool unique = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    std::vector<int> owner(transcript.labels.size(), -1);
    for (std::size_t s = 0; s < transcript.labels.size(); ++s) {
        if (unique) {
            const auto it = std::find(names.begin(), names.end(), transcript.bots[s]);
            if (it != names.end()) owner[s] = static_cast<int>(it - names.begin());
        } else if (s < names.size()) {
            owner[s] = static_cast<int>(s);
        }
    }
    return owner;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from, const std::string& prefix) {
    for (const auto& line : from) to.push_back(prefix + line);
}

}  // namespace

MatchSteps steps_by_participant(const TranscriptSteps& transcript, const MatchRecord& record) {
    MatchSteps out;
    for (const auto& p : record.participants) out.bots.push_back(p.bot);
    out.marked = transcript.marked;
    const std::vector<int> owner = owners(transcript, record);
    std::vector<int> seats_of(out.bots.size(), 0);
    for (int o : owner)
        if (o >= 0) ++seats_of[static_cast<std::size_t>(o)];
    for (const auto& [step, io] : transcript.steps) {
        std::vector<SeatStepIo>& merged = out.steps[step];
        merged.resize(out.bots.size());
        if (!io.notes.empty()) out.notes[step] = io.notes;
        for (std::size_t s = 0; s < io.seats.size() && s < owner.size(); ++s) {
            if (owner[s] < 0 || (io.seats[s].empty() && !io.seats[s].charged_ms)) continue;
            SeatStepIo& to = merged[static_cast<std::size_t>(owner[s])];
            const SeatStepIo& from = io.seats[s];
            const std::string prefix = seats_of[static_cast<std::size_t>(owner[s])] > 1 ? "[" + transcript.labels[s] + "] " : "";
            append(to.sent, from.sent, prefix);
            append(to.reply, from.reply, prefix);
            append(to.printed, from.printed, prefix);
            append(to.events, from.events, prefix);
            if (from.charged_ms) to.charged_ms = to.charged_ms.value_or(0) + *from.charged_ms;
        }
    }
    return out;
}

}  // namespace arb

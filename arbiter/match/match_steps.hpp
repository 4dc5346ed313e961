#pragma once
// What each bot of a match was sent, replied and printed at each step, from the match's
// transcript: the transcript's seats grouped by the record's participants (a SamurAI bot plays
// eight table seats, two agents in each of two games; its lines carry their seat's label).
#include <map>
#include <string>
#include <vector>

#include "core/match_record.hpp"
#include "core/table/transcript_steps.hpp"

namespace arb {

struct MatchSteps {
    std::vector<std::string> bots;  // participant i's name
    bool marked = false;            // the referee marked its steps (else all is step -1)
    std::map<int, std::vector<SeatStepIo>> steps;  // step -> participant -> its exchange
    std::map<int, std::vector<std::string>> notes;  // step -> the referee's lines
};

MatchSteps steps_by_participant(const TranscriptSteps& transcript, const MatchRecord& record);

}  // namespace arb

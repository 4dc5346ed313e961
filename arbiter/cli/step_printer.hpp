#pragma once
// `arbiter show --seat N --step K`: what a bot was sent, replied and printed at a step of a match,
// read from the match's transcript.
#include <filesystem>
#include <iosfwd>
#include <optional>

#include "core/match_record.hpp"

namespace arb::cli {

struct StepQuery {
    std::optional<int> seat;  // a participant (the record's seat); none = every bot
    std::optional<int> step;  // none = every step
    bool json = false;
};

// The transcript of the record at `record_path`, found as the viewer finds it; UserError when the
// match has none, or the seat or step is not in it (naming the ones there are).
void print_steps(std::ostream& out, const MatchRecord& record, const std::filesystem::path& record_path,
                 const StepQuery& query);

}  // namespace arb::cli

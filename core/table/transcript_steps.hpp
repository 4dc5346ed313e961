#pragma once
// A match transcript read back by step (the format transcript.hpp writes): for each step the
// referee marked, what each seat was sent, replied and printed, the time charged to it and the
// table's events, so that a step of a match can be shown (`arbiter show --step`, the viewer's
// bot panel) and two matches compared step by step (`arbiter diff`).
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arb {

// One seat at one step.
struct SeatStepIo {
    std::vector<std::string> sent;     // '>' lines
    std::vector<std::string> reply;    // '<' lines
    std::vector<std::string> printed;  // '!' lines: stderr (stdout too, for a TCP or HTTP bot)
    std::vector<std::string> events;   // its '#' lines other than the time charged
    std::optional<double> charged_ms;  // summed over the step's requests
    bool empty() const { return sent.empty() && reply.empty() && printed.empty() && events.empty(); }
};

struct StepIo {
    std::vector<SeatStepIo> seats;   // by table seat
    std::vector<std::string> notes;  // the referee's lines
};

struct TranscriptSteps {
    std::vector<std::string> labels;  // seat i's label ("p0"), from the "# seat" headers
    std::vector<std::string> bots;    // seat i's bot
    bool marked = false;              // the referee marked steps (else everything is step -1)
    // Step -1 holds what came before the first mark (starts, the table's set-up).
    std::map<int, StepIo> steps;
    int seat_of(const std::string& label) const;  // -1 when no seat has it
};

inline constexpr std::size_t kMaxTranscriptBytes = std::size_t{1} << 30;

// How steps are numbered: by the referee's marks, or by exchange (seat s's n-th request, n from
// 1, and the reply to it are its step n; step 0 is what it said before its first request), for
// a transcript whose referee marked none. By exchange, `marked` stays false and notes are not kept.
enum class StepNumbering { marks, exchanges };

// The event part of a transcript line (after its time) that is a step mark, "# step K": K.
std::optional<int> step_mark_of(std::string_view event);
// A seat's '#' event that is the time charged to it, "charged X ms": X.
std::optional<double> charged_ms_of(std::string_view seat_event);

// Throws UserError naming the file and the line for a file that is not a transcript, or one over
// kMaxTranscriptBytes.
TranscriptSteps read_transcript_steps(const std::filesystem::path& path, StepNumbering numbering = StepNumbering::marks);

}  // namespace arb

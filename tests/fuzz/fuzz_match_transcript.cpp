// Match transcripts read back by step (`arbiter show --step`, the viewer's bot panel, `arbiter
// diff`): the reader, then the grouping by the record's bots.
#include <filesystem>
#include <fstream>

#include "arbiter/match/match_steps.hpp"
#include "core/table/transcript_steps.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/test_scratch.hpp"

ARBITER_FUZZ_TARGET(match_transcript) {
    static const std::filesystem::path path = arb::testing::scratch_root() / "fuzz-transcript.txt";
    std::ofstream(path, std::ios::binary) << data;
    const arb::TranscriptSteps steps = arb::read_transcript_steps(path);
    arb::MatchRecord record;
    for (const auto& bot : steps.bots) {
        arb::ParticipantResult p;
        p.bot = bot;
        record.participants.push_back(p);
    }
    (void)arb::steps_by_participant(steps, record);
}

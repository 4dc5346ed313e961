// The transcript's per-seat side: what a bot prints on stderr is kept in whole lines between one
// request and the next, bounded per step and per match, and the cut is said.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/table/transcript.hpp"
#include "core/table/transcript_steps.hpp"
#include "tests/test_scratch.hpp"

using namespace arb::process_table_detail;
using arb::testing::fresh_scratch;

namespace {

// The transcript's lines without their times ("p0 ! text").
std::vector<std::string> lines_of(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line.size() > 11 ? line.substr(11) : line);
    return lines;
}

}  // namespace

TEST_CASE("transcript: stderr lines follow their request, split and joined into whole lines") {
    const auto path = fresh_scratch("transcript-lines") / "t.txt";
    {
        Transcript transcript(path);
        SeatTranscript seat(transcript, "p0");
        transcript.step(3);
        seat.line('>', "turn 3\n");
        seat.printed("think");
        seat.printed("ing\nsecond\r\nunfin");
        seat.line('<', "go");
        seat.line('>', "turn 4\n");
        seat.printed("ished\n");
        seat.finish();
    }
    CHECK(lines_of(path) == std::vector<std::string>{"# step 3", "p0 > turn 3", "p0 ! thinking", "p0 ! second",
                                                    "p0 < go", "p0 > turn 4", "p0 ! unfinished"});
}

TEST_CASE("transcript: a flood of stderr is bounded per step and per match, and the cut is said") {
    const auto path = fresh_scratch("transcript-flood") / "t.txt";
    {
        Transcript transcript(path);
        SeatTranscript seat(transcript, "p0");
        seat.line('>', "turn 1");
        for (int i = 0; i < 100; ++i) seat.printed("line " + std::to_string(i) + "\n");
        seat.printed(std::string(5000, 'x') + "\n");  // one long line, cut to kLineKept
        seat.line('>', "turn 2");
        seat.printed(std::string(5000, 'y') + "\n");
        // Many steps of 4 KiB each run into the match's bound.
        for (int step = 0; step < 200; ++step) {
            seat.line('>', "turn");
            for (int i = 0; i < 10; ++i) seat.printed(std::string(300, 'z') + "\n");
        }
        seat.finish();
    }
    const auto lines = lines_of(path);
    int kept_turn1 = 0;
    for (std::size_t i = 1; i < lines.size() && lines[i].rfind("p0 ! line", 0) == 0; ++i) ++kept_turn1;
    CHECK(kept_turn1 == SeatTranscript::kLinesPerStep);
    CHECK(lines[1 + kept_turn1] == "p0 ! [arbiter: stderr past 40 lines or 4 KiB a step is not kept here; it is in the seat's log]");
    CHECK(lines[2 + kept_turn1] == "p0 > turn 2");
    const std::string cut_line = lines[3 + kept_turn1];
    CHECK(cut_line.size() == 5 + SeatTranscript::kLineKept + std::string(" [arbiter: line cut]").size());
    std::size_t stderr_bytes = 0;
    int match_cut = 0;
    for (const auto& line : lines) {
        if (line.rfind("p0 ! ", 0) == 0) stderr_bytes += line.size() - 5 + 1;
        if (line.find("past 256 KiB a match") != std::string::npos) ++match_cut;
    }
    CHECK(match_cut == 1);
    CHECK(stderr_bytes <= SeatTranscript::kBytesPerMatch + 4096);
}

TEST_CASE("transcript: the time charged is summed over a step and written once when it ends") {
    const auto path = fresh_scratch("transcript-charged") / "t.txt";
    {
        Transcript transcript(path);
        SeatTranscript seat(transcript, "p0");
        seat.end_step();  // nothing charged: no line
        seat.line('>', "a");
        seat.charged(1.25);
        seat.line('>', "b");
        seat.charged(0.5);
        seat.end_step();
        seat.charged(2.0);
        seat.finish();
    }
    CHECK(lines_of(path) == std::vector<std::string>{"p0 > a", "p0 > b", "p0 # charged 1.750 ms", "p0 # charged 2.000 ms"});
}

TEST_CASE("transcript: without a file nothing is kept and nothing fails") {
    Transcript transcript;
    SeatTranscript seat(transcript, "p0");
    CHECK(!seat.open());
    seat.line('>', "turn 1");
    seat.printed("text\n");
    seat.finish();
}

TEST_CASE("transcript steps: a written transcript reads back by step and seat") {
    const auto path = fresh_scratch("transcript-steps") / "t.txt";
    {
        Transcript transcript(path);
        transcript.header("# limits: none");
        transcript.header("# seat p0: bot alpha: ./alpha --x");
        transcript.header("# seat p1: bot beta: ./beta");
        SeatTranscript p0(transcript, "p0"), p1(transcript, "p1");
        p0.line('#', "started pid 7");
        transcript.step(0);
        p0.line('>', "turn 0\nready\n");
        p1.line('>', "turn 0\nready\n");
        p0.line('<', "go");
        p0.line('#', "charged 1.500 ms");
        p0.printed("hello\n");
        transcript.step(1);
        transcript.note("turn 1 bot 1 timeout");
        p1.line('#', "retired: timeout: no reply");
        p0.line('>', "turn 1");
        p0.line('<', "o 1 2 N");
        p0.line('<', "go");
        p0.line('#', "charged 0.250 ms");
    }
    const arb::TranscriptSteps steps = arb::read_transcript_steps(path);
    CHECK(steps.labels == std::vector<std::string>{"p0", "p1"});
    CHECK(steps.bots == std::vector<std::string>{"alpha", "beta"});
    REQUIRE(steps.marked);
    REQUIRE(steps.steps.size() == 3);
    CHECK(steps.steps.at(-1).seats[0].events == std::vector<std::string>{"started pid 7"});
    const arb::StepIo& zero = steps.steps.at(0);
    CHECK(zero.seats[0].sent == std::vector<std::string>{"turn 0", "ready"});
    CHECK(zero.seats[0].reply == std::vector<std::string>{"go"});
    CHECK(zero.seats[0].printed == std::vector<std::string>{"hello"});
    CHECK(zero.seats[0].charged_ms == doctest::Approx(1.5));
    CHECK(zero.seats[1].reply.empty());
    const arb::StepIo& one = steps.steps.at(1);
    CHECK(one.notes == std::vector<std::string>{"turn 1 bot 1 timeout"});
    CHECK(one.seats[0].reply == std::vector<std::string>{"o 1 2 N", "go"});
    CHECK(one.seats[1].events == std::vector<std::string>{"retired: timeout: no reply"});
}

TEST_CASE("transcript steps: a file that is not a transcript is one error naming its line") {
    const auto dir = fresh_scratch("transcript-bad");
    std::ofstream(dir / "a.txt") << "# seat p0: bot a: ./a\n  0.1 p0 > x\n  0.2 p7 < y\n";
    CHECK_THROWS_WITH(arb::read_transcript_steps(dir / "a.txt"), doctest::Contains("a.txt:3: not a match transcript line (a seat 'p7' without a header)"));
    std::ofstream(dir / "b.txt") << "garbage\n";
    CHECK_THROWS_WITH(arb::read_transcript_steps(dir / "b.txt"), doctest::Contains("b.txt:1: not a match transcript line"));
    std::ofstream(dir / "c.txt") << "  0.1 # step x\n";
    CHECK_THROWS_WITH(arb::read_transcript_steps(dir / "c.txt"), doctest::Contains("step mark without its number"));
    CHECK_THROWS_WITH(arb::read_transcript_steps(dir / "none.txt"), doctest::Contains("cannot read the transcript"));
}

TEST_CASE("transcript steps: a last line still being written is left out, not an error") {
    const auto dir = fresh_scratch("transcript-writing");
    // A running match's transcript read while the table writes: its last line has no newline yet.
    std::ofstream(dir / "t.txt") << "# seat p0: bot a: ./a\n  0.1 # step 0\n  0.2 p0 > x\n  0.3";
    const arb::TranscriptSteps steps = arb::read_transcript_steps(dir / "t.txt");
    REQUIRE(steps.steps.count(0) == 1);
    CHECK(steps.steps.at(0).seats[0].sent == std::vector<std::string>{"x"});
}

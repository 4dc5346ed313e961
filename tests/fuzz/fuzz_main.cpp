// libFuzzer's entry point for a program holding exactly one target (the fuzz preset builds one
// program per target). Anything but a normal end or a one-line UserError aborts: libFuzzer then
// saves the input as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/fuzz_target.hpp"
#include "tests/test_scratch.hpp"

namespace {

// Targets whose reader takes a file write it into the scratch folder (tests/test_scratch.hpp).
// libFuzzer ends a finished run with exit(), which runs this; a finding aborts, which does not,
// so the scratch folder stays with the input's file in it.
struct ScratchCleanup {
    ~ScratchCleanup() { arb::testing::end_scratch(true); }
} g_scratch_cleanup;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& all = arb::fuzz::targets();
    if (all.size() != 1) {
        std::fprintf(stderr, "fuzz_main: %zu targets linked, expected 1\n", all.size());
        std::abort();
    }
    const std::string problem =
        arb::fuzz::run_target(all.begin()->second, std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        std::fprintf(stderr, "fuzz target %s: %s\n", all.begin()->first.c_str(), problem.c_str());
        std::abort();
    }
    return 0;
}

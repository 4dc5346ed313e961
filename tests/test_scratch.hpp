#pragma once
// The folder a test process writes its files in (bots' folders, databases, replays): one per
// process under the temporary folder. It is removed when the process's test cases all passed,
// and kept, with its path printed, when one failed, so what the failing case left can be read.
#include <filesystem>
#include <string>

namespace arb::testing {

// /tmp/arbiter-test-<pid>, made on first use.
const std::filesystem::path& scratch_root();

// scratch_root()/name, emptied and made again: a fresh folder for one case.
std::filesystem::path fresh_scratch(const std::string& name);

// Called by the suites' main when the run ends: removes the folder if it passed, else says where
// it is. Nothing to do when no case asked for it.
void end_scratch(bool passed);

}  // namespace arb::testing

// The suites' scratch folder (tests/test_scratch.hpp): a case writes into it; check_scratch.py
// runs this case and looks at the temporary folder afterwards (removed after a pass, kept after a
// failure). ARBITER_SCRATCH_FAIL makes the case fail on purpose for that check.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "tests/test_scratch.hpp"

TEST_CASE("the scratch folder holds the files of a case") {
    const auto dir = arb::testing::fresh_scratch("written");
    std::ofstream(dir / "file.txt") << "kept only if this case fails\n";
    CHECK(std::filesystem::exists(dir / "file.txt"));
    CHECK(dir.parent_path() == arb::testing::scratch_root());
    CHECK(std::getenv("ARBITER_SCRATCH_FAIL") == nullptr);
}

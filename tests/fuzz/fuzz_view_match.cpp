// arbiter view on one file: which game it is, the game's reader, and the page (Ants replays,
// Planowanie logs, SamurAI logs, smart-dog transcripts, match records whose replay is missing).
#include <fstream>

#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/test_scratch.hpp"

ARBITER_FUZZ_TARGET(view_match) {
    const auto path = arb::testing::scratch_root() / "match.txt";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
    (void)arb::view::viewer_page(arb::view::load_match_view(path));
}

// arbiter view on one file: which game it is, the game's reader, and the page (Ants replays,
// Planowanie logs, SamurAI logs, smart-dog transcripts, match records whose replay is missing).
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "tests/fuzz/fuzz_target.hpp"

ARBITER_FUZZ_TARGET(view_match) {
    static const std::filesystem::path dir = [] {
        const auto d = std::filesystem::temp_directory_path() / ("arbiter-fuzz-view-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    const auto path = dir / "match.txt";
    std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
    (void)arb::view::viewer_page(arb::view::load_match_view(path));
}

// smart-dog wire transcripts (`arbiter verify smartdog`), on the golden simple-1 map.
#include <filesystem>
#include <fstream>

#include "rules/smartdog/smartdog_verify.hpp"
#include "tests/fuzz/fuzz_target.hpp"
#include "tests/fuzz/referee_harness.hpp"
#include "tests/test_scratch.hpp"

ARBITER_FUZZ_TARGET(smartdog_transcript) {
    // <dir>/transcripts/simple-1_2p.txt finds its map at <dir>/maps/simple-1.txt.
    static const std::filesystem::path dir = [] {
        const auto d = arb::testing::scratch_root() / "smartdog";
        std::filesystem::create_directories(d / "maps");
        std::filesystem::create_directories(d / "transcripts");
        std::filesystem::copy_file(arb::fuzz::shared_data("smartdog/maps/simple-1.txt"), d / "maps" / "simple-1.txt",
                                   std::filesystem::copy_options::overwrite_existing);
        return d;
    }();
    const auto path = dir / "transcripts" / "simple-1_2p.txt";
    std::ofstream(path, std::ios::binary) << data;
    (void)arb::smartdog::verify_transcript(path);
}

#include "arbiter/tournament/install_layout.hpp"

namespace arb::tournament {
namespace {

// <prefix> of an installed arbiter (<prefix>/bin/arbiter), or the build folder (<build>/bin).
std::filesystem::path prefix_of_program() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path(".") : exe.parent_path().parent_path();
}

bool installed() {
    std::error_code ec;
    return std::filesystem::is_directory(prefix_of_program() / "share" / "arbiter", ec);
}

}  // namespace

std::filesystem::path sample_bots_dir() {
    return installed() ? prefix_of_program() / "lib" / "arbiter" / "bots" : prefix_of_program() / "bots";
}

std::filesystem::path game_data_dir() {
    return installed() ? prefix_of_program() / "share" / "arbiter" / "data" : std::filesystem::path(ARBITER_SOURCE_DATA_DIR);
}

}  // namespace arb::tournament

#include "tests/test_scratch.hpp"

#include <unistd.h>

#include <cstdio>
#include <system_error>

namespace arb::testing {
namespace {

bool g_made = false;

}  // namespace

const std::filesystem::path& scratch_root() {
    // Never destroyed: a fuzz program's clean-up runs from a static destructor, after a static
    // path made later than it would already be gone.
    static const std::filesystem::path* const root = [] {
        auto* path = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                               ("arbiter-test-" + std::to_string(::getpid())));
        std::filesystem::create_directories(*path);
        g_made = true;
        return path;
    }();
    return *root;
}

std::filesystem::path fresh_scratch(const std::string& name) {
    const std::filesystem::path dir = scratch_root() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

void end_scratch(bool passed) {
    if (!g_made) return;
    if (!passed) {
        std::fprintf(stderr, "test files kept in %s\n", scratch_root().c_str());
        return;
    }
    std::error_code ignored;  // a file a bot left unremovable only stays behind
    std::filesystem::remove_all(scratch_root(), ignored);
}

}  // namespace arb::testing

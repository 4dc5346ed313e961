#pragma once
// Errors a user can cause and fix: a bad bot spec, a missing map, an unknown option.
// main() prints what() as one line and exits with kUsageExitCode; everything else is a bug.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace arb {

inline constexpr int kUsageExitCode = 2;

class UserError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Makes the folder (and its parents) the user named with `flag`, or a UserError saying why not
// (a file in the way, no permission).
inline void ensure_folder(const std::filesystem::path& folder, const std::string& flag) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (!ec && std::filesystem::is_directory(folder, ec)) return;
    throw UserError(flag + " " + folder.string() + ": cannot make a folder there (" +
                    (ec ? ec.message() : std::string("a file of that name is in the way")) + ")");
}

}  // namespace arb

#pragma once
// Errors a user can cause and fix: a bad bot spec, a missing map, an unknown option.
// main() prints what() as one line and exits with kUsageExitCode; everything else is a bug.
#include <stdexcept>
#include <string>

namespace arb {

inline constexpr int kUsageExitCode = 2;

class UserError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace arb

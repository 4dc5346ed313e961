#include <cstring>

#include "arbiter/cli/command_line.hpp"
#include "core/user_namespace.hpp"

namespace {

// The commands that start bots: under a non-root user they run in a user namespace of the
// arbiter's own, which the sandbox builds on (core/user_namespace.hpp). The others (a browser
// that `view --open` starts, say) keep the user's plain view of the machine.
bool starts_bots(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') continue;  // -v, -q: the only options before a command
        for (const char* command : {"play", "tournament", "match", "ladder", "plan", "run-job"})
            if (std::strcmp(argv[i], command) == 0) return true;
        return false;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    // First, while the arbiter is one thread: the kernel enters no user namespace otherwise.
    if (starts_bots(argc, argv)) arb::enter_own_user_namespace();
    return arb::cli::run_command_line(argc, argv);
}

#include <cstring>
#include <initializer_list>

#include "arbiter/cli/command_line.hpp"
#include "core/output_modes.hpp"
#include "core/confine/user_namespace.hpp"

namespace {

// The command word: the first that is not an option (-v, -q and --shared-outputs, the only
// options before a command, take no value).
const char* command_of(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (argv[i][0] != '-') return argv[i];
    return "";
}

bool one_of(const char* command, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (std::strcmp(command, name) == 0) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const char* command = command_of(argc, argv);
    // The commands that start bots: under a non-root user they run in a user namespace of the
    // arbiter's own, which the sandbox builds on (core/confine/user_namespace.hpp). The others (a browser
    // that `view --open` starts, say) keep the user's plain view of the machine. First, while the
    // arbiter is one thread: the kernel enters no user namespace otherwise.
    if (one_of(command, {"play", "tournament", "match", "ladder", "plan", "run-job"})) arb::enter_own_user_namespace();
    // Databases, match folders and logs are the user's alone (--shared-outputs: the user's
    // umask); a report and a viewer are pages for people to read.
    if (!one_of(command, {"report", "view"})) arb::keep_outputs_private();
    return arb::cli::run_command_line(argc, argv);
}

#pragma once
// What the confinement tests share: the sandboxes that work on this machine, and table options
// with one of them.
#include <vector>

#include "core/sandbox.hpp"
#include "core/user_namespace.hpp"
#include "tests/core/bot_test_support.hpp"

namespace arb::testing {

inline TableOptions with_sandbox(SandboxMode mode) {
    TableOptions options;
    options.limits.sandbox = mode;
    options.term_grace = Millis{100};
    options.quit_grace = Millis{100};
    return options;
}

// The sandboxes that work here (namespaces needs a root arbiter, bwrap its package); the tests run
// under each. Under a root arbiter bwrap runs as the seat's user, which must be able to reach the
// bots' folders: where the build lies under a folder others cannot enter (a 0700 home), only the
// arbiter's own namespaces can show them, and bwrap is skipped with a message.
inline std::vector<SandboxMode> confined_modes(const std::filesystem::path& program = {}) {
    std::vector<SandboxMode> modes;
    for (const SandboxMode mode : {SandboxMode::namespaces, SandboxMode::bwrap}) {
        try {
            if (!plan_sandbox(mode).confined()) continue;
            if (mode == SandboxMode::bwrap && host_root() && !program.empty() && !reachable_by_others(program)) {
                MESSAGE("skipped under bwrap: a seat user cannot reach " << program.string());
                continue;
            }
            modes.push_back(mode);
        } catch (const UserError& e) {
            MESSAGE("skipped: " << std::string(e.what()));
        }
    }
    return modes;
}

}  // namespace arb::testing

// What every command that starts bots shares: confinement flags, the game options of --set, the
// folder of a new run.
#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "arbiter/cli/commands.hpp"
#include "core/confine/sandbox.hpp"
#include "core/user_error.hpp"

namespace arb::cli {

void add_confinement_flags(CLI::App* cmd, ConfinementArgs& args) {
    cmd->add_option("--sandbox", args.sandbox,
                    "Bot confinement: auto (namespaces as root, else bubblewrap, where it works) | namespaces | bwrap | none")
        ->check(CLI::IsMember({"auto", "namespaces", "bwrap", "none"}));
    cmd->add_flag("--seat-users", args.seat_users,
                  "Run each bot as a user id of its own also without a sandbox (always so in a root arbiter's sandbox)");
    cmd->add_option("--disk-mib", args.disk_mib,
                    "Largest file a bot may write, and the size of its private /tmp and /dev/shm, in MiB (0 = no limit; default 256)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
    cmd->add_option("--folder-mib", args.folder_mib,
                    "Most a bot's own folder may hold after its writes are written back, over all its matches, in MiB "
                    "(namespaces sandbox; 0 = no bound; default 1024)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 30));
    cmd->add_option("--pass-env", args.pass_env,
                    "Pass this variable of the arbiter's environment on to every bot (repeatable; bots get only PATH, HOME, "
                    "LANG, LC_*, TZ and TERM otherwise)");
    cmd->add_option("--allow-syscalls", args.allow_syscalls,
                    "Let these system calls through the sandbox's filter, e.g. perf_event_open (repeatable)")
        ->delimiter(',');
}

void apply_confinement(const ConfinementArgs& args, Limits& limits) {
    if (!args.sandbox.empty()) limits.sandbox = sandbox_mode_from_string(args.sandbox);
    if (args.seat_users) limits.seat_users = true;
    if (args.disk_mib) limits.disk_mib = *args.disk_mib;
    if (args.folder_mib) limits.folder_mib = *args.folder_mib;
    for (const auto& name : args.pass_env)
        if (std::find(limits.pass_env.begin(), limits.pass_env.end(), name) == limits.pass_env.end()) limits.pass_env.push_back(name);
    for (const auto& name : args.allow_syscalls)
        if (std::find(limits.allow_syscalls.begin(), limits.allow_syscalls.end(), name) == limits.allow_syscalls.end())
            limits.allow_syscalls.push_back(name);
}

std::filesystem::path new_run_folder(const std::string& name) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    const std::filesystem::path base = std::filesystem::path("arbiter-out") / fmt::format("{}-{}", name, stamp);
    std::filesystem::path folder = base;
    for (int n = 2; std::filesystem::exists(folder); ++n) folder = base.string() + "-" + std::to_string(n);
    return folder;
}

std::map<std::string, std::string> given_sets(const std::vector<std::string>& sets) {
    std::map<std::string, std::string> given;
    for (const auto& kv : sets) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UserError("--set wants KEY=VALUE, got '" + kv + "'");
        given[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return given;
}

GameOptions options_from_sets(const GameDescriptor& game, const std::vector<std::string>& sets) {
    const auto given = given_sets(sets);
    try {
        return GameOptions(game.options, given);
    } catch (const UserError& e) {
        throw UserError(fmt::format("--set: {}", e.what()));
    }
}

}  // namespace arb::cli

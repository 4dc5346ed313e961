#pragma once
// How a seat's bot is started: one Launcher per table, chosen once from the sandbox asked for
// (none, the arbiter's own namespaces, or bwrap), asked the same way whichever it is. Every start
// runs one sequence (Launcher::start):
//   1. the request: program, arguments, folder, environment
//   2. a user id of the seat's own (a root arbiter's sandbox always; --seat-users)
//   3. what a confined bot sees besides the base view (view_exposure.cpp)
//   4. where the bot finds the arbiter: the seat's channel says (SeatToStart::tell_address)
//   5. the confinement itself: the launcher's own step (none: nothing; namespaces: its folder's
//      scratch, its network and the syscall filter; bwrap: bwrap's command line)
//   6. its limits: a cgroup of its own, resource limits
//   7. the spawn (bot_spawn.cpp): in the child, the privileged steps in one sequence
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/confine/bot_limits.hpp"
#include "core/confine/bot_spawn.hpp"
#include "core/confine/folder_overlay.hpp"
#include "core/confine/namespace_sandbox.hpp"
#include "core/confine/sandbox.hpp"
#include "core/confine/seat_users.hpp"
#include "core/table_settings.hpp"

namespace arb {

// One seat to start.
struct SeatToStart {
    const BotSpec& bot;
    const std::vector<std::string>& extra_args;
    const std::string& label;  // "p0": names its cgroup
    bool networked = false;    // it talks over TCP or HTTP (its sandbox keeps its loopback)
    std::vector<std::filesystem::path> other_bot_folders;  // never shown to it
    // Step 4: the channel sets the bot's address in its environment and command line (and a
    // confined TCP seat's own network); `confined`: the bot runs in a sandbox.
    std::function<void(SpawnRequest& request, bool confined)> tell_address;
};

// A started seat: its processes, and what it holds until every one of them is gone.
struct StartedSeat {
    SpawnedBot bot;
    SeatUser user;
    LentNetworkNamespace netns;    // a confined pipe seat's empty network
    FolderScratch folder_scratch;  // the namespaces sandbox: its folder's changes, until written back
    BotCgroup cgroup;
    UniqueFd bwrap_filter;  // bwrap reads its syscall filter at its start: open until the spawn
};

class Launcher {
public:
    Launcher(const TableOptions& options, LimitsPlan limits_plan, SandboxPlan sandbox)
        : options_(options), limits_plan_(std::move(limits_plan)), sandbox_(std::move(sandbox)) {}
    virtual ~Launcher() = default;
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

    // Runs the sequence above. Throws UserError naming the bot.
    StartedSeat start(const SeatToStart& seat) const;

    bool confined() const { return sandbox_.confined(); }
    // Processes between the started one and the bot's own program (SandboxPlan::program_depth).
    int program_depth() const { return sandbox_.program_depth(); }
    // How limits are enforced and bots confined, for logs and records ("cgroup v2, namespaces sandbox").
    std::string description() const;
    const LimitsPlan& limits_plan() const { return limits_plan_; }
    const SandboxPlan& sandbox_plan() const { return sandbox_; }

protected:
    // Step 5: `exposed` is what the bot sees (confined launchers only).
    virtual void confine(const SeatToStart& seat, SpawnRequest& request, ExposedPaths exposed, StartedSeat& started) const = 0;

    const TableOptions& options_;
    const LimitsPlan limits_plan_;
    const SandboxPlan sandbox_;
};

// The launcher of the sandbox that `options.limits.sandbox` asks for (plan_sandbox decides
// "auto"). `options` outlives it. Throws UserError when the sandbox asked for cannot run.
std::unique_ptr<Launcher> make_launcher(const TableOptions& options);

}  // namespace arb

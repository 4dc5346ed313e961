#pragma once
// How a bot's limits are enforced (planowanie.md 6.1, 6.2): a cgroup per seat where the machine
// lets us create one (cgroup v2 with delegated memory+pids controllers, else the v1 memory, pids
// and cpuacct hierarchies), otherwise resource limits (RLIMIT_AS for memory). The cgroup also
// gives the peak memory, the CPU time of every process of the bot, an OOM-kill count to tell a
// memory-limit death from a crash, and the list of processes to kill at the end.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/confine/bot_spawn.hpp"
#include "core/table_settings.hpp"

namespace arb {

struct LimitsPlan {
    enum class Kind { cgroup_v2, cgroup_v1, rlimit };
    Kind kind = Kind::rlimit;
    std::string mechanism;                   // for logs and limit_mechanism()
    std::filesystem::path v2_parent;         // cgroup v2: seat groups are created here
    std::filesystem::path v1_memory_parent;  // cgroup v1: one parent per hierarchy
    std::filesystem::path v1_pids_parent;    // empty = hierarchy not usable
    std::filesystem::path v1_cpuacct_parent;
    std::filesystem::path v1_freezer_parent;  // empty: --freeze stops processes by signal
};

// Probes the machine once (cached) and decides the mechanism for these limits.
LimitsPlan plan_limits(const Limits& limits);

// The resource limits the child sets on itself before exec under this plan.
ChildResourceLimits child_limits(const LimitsPlan& plan, const Limits& limits);

// One seat's cgroup(s). Empty (every query returns "unknown") under the rlimit plan.
class BotCgroup {
public:
    BotCgroup() = default;
    BotCgroup(BotCgroup&& other) noexcept;
    BotCgroup& operator=(BotCgroup&& other) noexcept;
    BotCgroup(const BotCgroup&) = delete;
    BotCgroup& operator=(const BotCgroup&) = delete;
    ~BotCgroup() { remove(); }

    bool active() const { return !dirs_.empty(); }
    // Files the child writes "0" (itself) to before exec: tasks under v1, cgroup.procs under v2.
    std::vector<std::filesystem::path> join_files() const;
    bool oom_killed() const;
    std::optional<std::int64_t> peak_memory_kib() const;
    std::optional<std::chrono::nanoseconds> cpu_used() const;
    std::vector<pid_t> members() const;
    // Freezes or thaws every member through the freezer (v1 freezer.state, v2 cgroup.freeze);
    // false when the seat has no freezer.
    bool freeze(bool frozen) const;
    // Sends sig to every member (also processes that left the bot's process group).
    void signal_all(int sig) const;
    // Removes the directories (once the members are gone). Idempotent.
    void remove();

private:
    friend BotCgroup create_bot_cgroup(const LimitsPlan&, const Limits&, std::string_view, bool);
    bool v2_ = false;
    std::vector<std::filesystem::path> dirs_;
    std::filesystem::path memory_dir_, cpu_dir_, freezer_dir_;
};

// Kills what is left in seat cgroups of arbiters that died (SIGKILL, a crash), then removes the
// groups. Run once per process by plan_limits: with --sandbox none, a bot's setsid daemon
// outlives a killed arbiter until the next one starts.
void reclaim_orphaned_seats(const LimitsPlan& plan);

// Creates the seat's cgroup under the plan; an empty BotCgroup for the rlimit plan. Throws
// UserError if a cgroup the plan relies on cannot be set up.
// `freezer`: the seat will be frozen between turns (under v1 a group in the freezer hierarchy,
// made only then: each group costs its creation and removal).
BotCgroup create_bot_cgroup(const LimitsPlan& plan, const Limits& limits, std::string_view label, bool freezer = false);

}  // namespace arb

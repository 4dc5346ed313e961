#pragma once
// A seat's bot processes: the process group, its exit, CPU clocks, cgroup and freezing, and what
// the seat holds until every process of it is gone (its seat user, its network, its folder's
// changes). The seat's exchange asks it through SeatProcess; the table starts, watches, signals
// and reaps it.
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "core/confine/launcher.hpp"
#include "core/table/process_table.hpp"
#include "core/table/seat_exchange.hpp"
#include "core/unique_fd.hpp"

namespace arb::process_table_detail {

class BotProcess final : public SeatProcess {
public:
    // `program_depth`: how far below the started process the bot's own program runs (bwrap's).
    BotProcess(bool freeze_idle, int program_depth) : freeze_idle_(freeze_idle), program_depth_(program_depth) {}

    // ---- SeatProcess: what the seat's exchange asks
    bool exited() const override { return main_exited; }
    std::string exit_or(std::string otherwise) override;
    bool exits_within(Millis wait) const override;
    bool oom_killed() const override { return cgroup.oom_killed(); }
    std::optional<Nanos> cpu_now() const override;
    std::optional<SchedSample> sched_sample() const override;
    bool runnable() const override;
    void wake() override;
    void rest() override;
    void kill() override;
    void bury() override;

    // ---- the table's side
    // What the started seat holds until its processes are gone: its user, network, folder's
    // scratch and cgroup.
    void hold(StartedSeat& started);
    // The started process (pid == its process group), watched for its exit: `on_exit` runs in
    // the event loop once it is collected.
    void started(pid_t started_pid, bool confined, UniqueFd init_status, asio::io_context& ctx, std::function<void()> on_exit);
    // The program whose CPU clock and run state are read (at once, or at its first request).
    void find_program();
    // Collects what has ended of the seat's processes; group_gone once nothing of it is left.
    void reap();
    // `sig` to every process of the seat: its group, and members that left it (through the cgroup).
    void signal(int sig);
    void freeze();
    void thaw();
    // "exited with code N" / "killed by signal N" once collected, else `otherwise`.
    std::string exit_text(std::string otherwise) const;
    // Nothing of the seat runs (or it never started).
    bool gone() const { return pid <= 0 || group_gone; }
    SeatEnd end(std::string limit) const;
    // After the match: the folder's changes leave the scratch for the folder.
    void write_back_folder(const std::string& bot_name, const std::string& label);
    // Usage read from the cgroup before it goes, then the seat's user and network given back.
    void release();

    pid_t pid = -1;  // == process group id (under the sandbox: the sandbox's first process)
    bool main_exited = false;
    bool main_reaped = false;
    int exit_status = 0;
    rusage main_usage{};
    bool group_gone = false;  // every process of the seat reaped: its group and its cgroup's strays
    BotCgroup cgroup;
    SeatUser user;  // held until every process of the seat is gone (--seat-users)
    LentNetworkNamespace netns;  // a confined pipe seat's empty network, until its processes are gone
    FolderScratch folder_scratch;  // the namespaces sandbox: its folder's changes, until they are written back
    // Read from the cgroup just before it is removed.
    std::optional<std::int64_t> peak_memory_kib_cache;
    std::optional<Nanos> cpu_total_cache;

private:
    void watch_exit(std::function<void()> on_exit);

    bool freeze_idle_;
    int program_depth_;
    pid_t program_pid_ = -1;  // the bot's own program, whose CPU clock and state are read
    bool program_found_ = false;
    bool confined_ = false;
    UniqueFd init_status_read_;  // the arbiter's namespaces: the init's report of its program's end
    std::vector<pid_t> strays_;  // cgroup members seen outside the group (setsid), until reaped
    bool frozen_ = false;
    std::unique_ptr<asio::posix::stream_descriptor> exit_watch_;  // pidfd of the main process
    clockid_t cpu_clock_{};
    bool has_cpu_clock_ = false;
    UniqueFd schedstat_;  // /proc/<pid>/schedstat: CPU and run-queue wait of the main thread
    UniqueFd proc_stat_;  // /proc/<pid>/stat: its state (running or runnable = 'R')
};

}  // namespace arb::process_table_detail

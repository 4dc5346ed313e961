// ProcessTable: the Table over real bot processes. One single-threaded Asio io_context per table
// drives every seat's pipes, exit watch and deadlines; nothing blocks on one bot.
// This file holds the table object itself (construction, launch, usage); the rest is one file
// per job, listed in core/table/process_table_internal.hpp.
#include <cerrno>
#include <cstring>
#include <mutex>

#include <spdlog/spdlog.h>

#include "core/table/process_table_internal.hpp"
#include "core/user_error.hpp"
#include "core/confine/user_namespace.hpp"

namespace arb {
namespace {

// Once per run, what a non-root arbiter's sandbox cannot have that a root one has.
void say_what_a_user_sandbox_lacks(const std::string& limits) {
    static std::once_flag said;
    std::call_once(said, [&] {
        const bool cgroups = limits.rfind("cgroup", 0) == 0;
        spdlog::warn("not root: bots run in the arbiter's own user namespace; each seat is a user of its own there, "
                     "not on the host, so a bot reads in its view what your user may read{}",
                     cgroups ? "" : "; no cgroup of your own to write: memory bounded by RLIMIT_AS, --freeze by SIGSTOP");
    });
}

}  // namespace

namespace process_table_detail {

ProcessTableImpl::ProcessTableImpl(std::vector<SeatLaunch> launches, TableOptions options)
    : options_(std::move(options)), limits_plan_(plan_limits(options_.limits)),
      sandbox_plan_(plan_sandbox(options_.limits.sandbox)), shared_port_(ctx_, *this, launches) {
    if (sandbox_plan_.namespaces && !host_root()) say_what_a_user_sandbox_lacks(limits_plan_.mechanism);
    for (auto& launch : launches) {
        auto& seat = *seats_.emplace_back(std::make_unique<Seat>(std::move(launch)));
        const ChannelSeat channel{*this, size() - 1, ctx_, seat.launch, options_.limits.max_line_bytes, chunk_, shared_port_,
                                   read_memory_.emplace_back()};
        seat.channel = make_channel(seat.launch.channel, channel);
    }
    if (!options_.transcript_path.empty()) {
        if (options_.transcript_path.has_parent_path()) {
            std::error_code ec;
            std::filesystem::create_directories(options_.transcript_path.parent_path(), ec);
        }
        transcript_ = std::fopen(options_.transcript_path.c_str(), "we");
        if (transcript_ == nullptr) {
            throw UserError("cannot write transcript '" + options_.transcript_path.string() +
                            "': " + std::strerror(errno));
        }
    }
    if (!options_.log_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(options_.log_dir, ec);
        if (ec) throw UserError("cannot create log dir '" + options_.log_dir.string() + "': " + ec.message());
    }
}

ProcessTableImpl::~ProcessTableImpl() {
    try {
        close();
    } catch (const std::exception& e) {
        spdlog::error("closing a process table: {}", e.what());
    }
    if (transcript_ != nullptr) std::fclose(transcript_);
}

void ProcessTableImpl::start_all() {
    if (transcript_ != nullptr) {
        std::fprintf(transcript_, "# limits: %s; memory %lld MiB; sandbox: %s\n", limits_plan_.mechanism.c_str(),
                     static_cast<long long>(options_.limits.memory_mib), sandbox_plan_.description.c_str());
        for (const auto& seat : seats_) {
            std::fprintf(transcript_, "# seat %s: bot %s: %s\n", seat->launch.info.label.c_str(),
                         seat->launch.bot.name.c_str(), seat->launch.bot.command.c_str());
        }
        std::fflush(transcript_);
    }
    for (int s = 0; s < size(); ++s) {
        if (seats_[s]->launch.bot.url.empty()) {
            start_seat(s);
        } else {
            start_remote_seat(s);  // a bot already serving HTTP: no process to start
        }
    }
}

UsageStats ProcessTableImpl::usage(int s) const {
    const Seat& seat = at(s);
    const SeatProcess& process = seat.process;
    UsageStats u;
    u.wall_used_s = std::chrono::duration<double>(seat.requests.clock.used()).count();
    u.longest_reply_s = std::chrono::duration<double>(seat.requests.clock.longest()).count();
    u.requests = seat.requests.clock.requests();
    double cpu = std::chrono::duration<double>(seat.requests.cpu_in_requests).count();
    if (process.main_reaped) {
        const auto& ru = process.main_usage;
        cpu = std::max(cpu, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
                                ru.ru_stime.tv_usec / 1e6);
        u.peak_memory_kib = ru.ru_maxrss;  // Linux: KiB, the main process's peak RSS
    }
    if (process.cpu_total_cache) cpu = std::max(cpu, std::chrono::duration<double>(*process.cpu_total_cache).count());
    // The larger of the two: a v1 cgroup does not count shared library pages already charged to
    // another group, ru_maxrss does (but only for the main process).
    if (process.peak_memory_kib_cache) u.peak_memory_kib = std::max(u.peak_memory_kib, *process.peak_memory_kib_cache);
    u.cpu_used_s = cpu;
    return u;
}

}  // namespace process_table_detail

std::unique_ptr<ProcessTable> ProcessTable::launch(std::vector<SeatLaunch> seats, TableOptions options) {
    for (const auto& seat : seats) {
        if (seat.bot.argv.empty() && seat.bot.url.empty()) throw UserError("bot '" + seat.bot.name + "': empty command");
        if (seat.bot.url.empty()) resolve_executable(seat.bot);  // one-line error naming the bot, before anything starts
    }
    auto table = std::make_unique<process_table_detail::ProcessTableImpl>(std::move(seats), std::move(options));
    // If a later seat cannot start, the destructor stops the seats already started.
    table->start_all();
    return table;
}

}  // namespace arb

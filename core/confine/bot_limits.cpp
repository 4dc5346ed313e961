#include "core/confine/bot_limits.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/user_error.hpp"
#include "core/confine/user_namespace.hpp"

namespace arb {
namespace fs = std::filesystem;

namespace {

const fs::path kCgroupRoot = "/sys/fs/cgroup";

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

bool write_text(const fs::path& path, std::string_view text) {
    std::ofstream out(path);
    if (!out) return false;
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

std::optional<std::int64_t> read_number(const fs::path& path) {
    const auto text = read_text(path);
    if (!text) return std::nullopt;
    try {
        return std::stoll(*text);
    } catch (...) {
        return std::nullopt;
    }
}

// "key value" lines (memory.events, memory.oom_control, cpu.stat).
std::optional<std::int64_t> read_keyed(const fs::path& path, std::string_view key) {
    const auto text = read_text(path);
    if (!text) return std::nullopt;
    std::istringstream in(*text);
    std::string k;
    std::int64_t v = 0;
    while (in >> k >> v) {
        if (k == key) return v;
    }
    return std::nullopt;
}

// Our own cgroup path in a hierarchy, from /proc/self/cgroup ("4:memory:/a/b", "0::/a").
std::optional<std::string> own_cgroup(std::string_view controller) {
    const auto text = read_text("/proc/self/cgroup");
    if (!text) return std::nullopt;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        std::istringstream list(controllers);
        std::string c;
        while (std::getline(list, c, ',')) {
            if (c == controller) return line.substr(second + 1);
        }
        if (controller.empty() && controllers.empty()) return line.substr(second + 1);
    }
    return std::nullopt;
}

// The PID namespace our pids are numbered in. Arbiters in other PID namespaces (containers,
// the nodes of the multi-host tests) can share this cgroup tree, where the same number is
// another process: seat cgroups are named "arbiter-PID.NAMESPACE-...", so that names do not
// clash and a sweep leaves another namespace's cgroups alone.
unsigned long long pid_namespace_id() {
    struct stat st {};
    return ::stat("/proc/self/ns/pid", &st) == 0 ? static_cast<unsigned long long>(st.st_ino) : 0;
}
constexpr unsigned long long kInitialPidNamespace = 0xEFFFFFFCULL;  // the kernel's PROC_PID_INIT_INO

std::string owner_tag() { return fmt::format("{}.{}", ::getpid(), pid_namespace_id()); }

// A directory where we can create (and remove) child cgroups.
bool can_create_children(const fs::path& parent) {
    const fs::path probe = parent / fmt::format("arbiter-probe-{}", owner_tag());
    if (::mkdir(probe.c_str(), 0755) != 0) return false;
    ::rmdir(probe.c_str());
    return true;
}

std::optional<fs::path> usable_v1_parent(std::string_view controller) {
    const fs::path mount = kCgroupRoot / controller;
    if (!fs::exists(mount / "cgroup.procs")) return std::nullopt;
    if (const auto own = own_cgroup(controller)) {
        const fs::path mine = mount / fs::path(*own).relative_path();
        if (can_create_children(mine)) return mine;
    }
    if (can_create_children(mount)) return mount;
    return std::nullopt;
}

std::optional<fs::path> usable_v2_parent() {
    // Pure v2 mounts at /sys/fs/cgroup; hybrid systems mount it at /sys/fs/cgroup/unified.
    for (const fs::path& mount : {kCgroupRoot, kCgroupRoot / "unified"}) {
        if (!fs::exists(mount / "cgroup.controllers")) continue;
        const auto own = own_cgroup("");
        if (!own) continue;
        const fs::path mine = mount / fs::path(*own).relative_path();
        const auto controllers = read_text(mine / "cgroup.subtree_control");
        auto has = [&](std::string_view c) { return controllers && controllers->find(c) != std::string::npos; };
        if (!has("memory") || !has("pids")) {
            // Enabling controllers for children only works where no process lives (the root
            // is exempt); when it fails the subtree is not delegated to us.
            write_text(mine / "cgroup.subtree_control", "+memory +pids +cpu");
            const auto again = read_text(mine / "cgroup.subtree_control");
            if (!again || again->find("memory") == std::string::npos || again->find("pids") == std::string::npos) continue;
        }
        if (can_create_children(mine)) return mine;
    }
    return std::nullopt;
}

// Seat cgroups of arbiters that died without cleaning up (SIGKILL, a crash): whatever still
// runs in them (a bot's setsid daemon, without the sandbox) is killed, then they are removed so
// they do not pile up. Names carry the owner's pid and PID namespace.
void sweep_orphaned_cgroups(const fs::path& parent) {
    if (parent.empty()) return;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("arbiter-", 0) != 0) continue;
        char* end = nullptr;
        const long owner = std::strtol(name.c_str() + 8, &end, 10);
        if (owner <= 0 || owner == ::getpid()) continue;
        // Another namespace's pid cannot be looked up from here. A name without a namespace (an
        // older arbiter's) is judged only from the machine's own namespace, where it was made.
        const unsigned long long ns = *end == '.' ? std::strtoull(end + 1, nullptr, 10) : kInitialPidNamespace;
        if (ns != pid_namespace_id()) continue;
        if (::kill(static_cast<pid_t>(owner), 0) == 0 || errno != ESRCH) continue;
        // A frozen leftover must thaw to die of SIGKILL under v1.
        write_text(entry.path() / "freezer.state", "THAWED");
        write_text(entry.path() / "cgroup.freeze", "0");
        for (int round = 0; round < 50; ++round) {
            const auto text = read_text(entry.path() / "cgroup.procs");
            if (!text || text->empty()) break;
            std::istringstream in(*text);
            for (pid_t pid = 0; in >> pid;) ::kill(pid, SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ::rmdir(entry.path().c_str());
    }
}

LimitsPlan probe_machine() {
    LimitsPlan plan;
    // ARBITER_LIMITS=rlimit skips the cgroups (to test the fallback, or where cgroups misbehave).
    const char* forced = std::getenv("ARBITER_LIMITS");
    if (forced != nullptr && std::string_view(forced) == "rlimit") {
        plan.mechanism = "rlimit (RLIMIT_AS, RLIMIT_NPROC; forced by ARBITER_LIMITS)";
        return plan;
    }
    if (const auto v2 = usable_v2_parent()) {
        plan.kind = LimitsPlan::Kind::cgroup_v2;
        plan.v2_parent = *v2;
        plan.mechanism = "cgroup v2 (" + v2->string() + ")";
        reclaim_orphaned_seats(plan);
        return plan;
    }
    if (const auto memory = usable_v1_parent("memory")) {
        plan.kind = LimitsPlan::Kind::cgroup_v1;
        plan.v1_memory_parent = *memory;
        plan.v1_pids_parent = usable_v1_parent("pids").value_or(fs::path{});
        plan.v1_cpuacct_parent = usable_v1_parent("cpuacct").value_or(fs::path{});
        plan.mechanism = "cgroup v1 (memory";
        if (!plan.v1_pids_parent.empty()) plan.mechanism += ", pids";
        if (!plan.v1_cpuacct_parent.empty()) plan.mechanism += ", cpuacct";
        plan.mechanism += ")";
        plan.v1_freezer_parent = usable_v1_parent("freezer").value_or(fs::path{});
        reclaim_orphaned_seats(plan);
        return plan;
    }
    plan.kind = LimitsPlan::Kind::rlimit;
    plan.mechanism = "rlimit (RLIMIT_AS, RLIMIT_NPROC)";
    return plan;
}

}  // namespace

void reclaim_orphaned_seats(const LimitsPlan& plan) {
    // The memory group first: every process of a seat is in it.
    for (const auto& parent : {plan.v2_parent, plan.v1_memory_parent, plan.v1_freezer_parent, plan.v1_pids_parent,
                               plan.v1_cpuacct_parent})
        sweep_orphaned_cgroups(parent);
}

namespace {

std::int64_t processes_of_this_user() {
    std::int64_t count = 0;
    const uid_t uid = ::getuid();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        struct stat st {};
        if (::stat(entry.path().c_str(), &st) == 0 && st.st_uid == uid) ++count;
    }
    return count;
}

std::atomic<int> cgroup_counter{0};

}  // namespace

LimitsPlan plan_limits(const Limits& limits) {
    static std::once_flag once;
    static LimitsPlan machine;
    std::call_once(once, [] {
        machine = probe_machine();
        spdlog::debug("bot limits enforced by {}", machine.mechanism);
    });
    LimitsPlan plan = machine;
    if (limits.memory_mib <= 0 && plan.kind == LimitsPlan::Kind::rlimit) plan.mechanism = "rlimit (no memory limit)";
    return plan;
}

ChildResourceLimits child_limits(const LimitsPlan& plan, const Limits& limits) {
    ChildResourceLimits child;
    child.core_dumps = limits.core_dumps;
    if (limits.cpu_seconds) child.cpu_seconds = static_cast<std::uint64_t>(*limits.cpu_seconds);
    if (limits.disk_mib > 0) child.file_size_bytes = static_cast<std::uint64_t>(limits.disk_mib) << 20;
    if (plan.kind == LimitsPlan::Kind::rlimit) {
        if (limits.memory_mib > 0) child.address_space_bytes = static_cast<std::uint64_t>(limits.memory_mib) << 20;
        // RLIMIT_NPROC counts every process of the user and does not bind root; it is only a
        // rough fork-bomb guard here, set above what the user already runs.
        if (limits.max_processes > 0 && !host_root()) {
            child.processes = static_cast<std::uint64_t>(processes_of_this_user() + limits.max_processes);
        }
    }
    return child;
}

BotCgroup create_bot_cgroup(const LimitsPlan& plan, const Limits& limits, std::string_view label, bool freezer) {
    BotCgroup group;
    if (plan.kind == LimitsPlan::Kind::rlimit) return group;
    const std::string name = fmt::format("arbiter-{}-{}-{}", owner_tag(), cgroup_counter++, label);
    auto make = [&](const fs::path& parent) {
        const fs::path dir = parent / name;
        if (::mkdir(dir.c_str(), 0755) != 0) {
            throw UserError("cannot create cgroup " + dir.string() + ": " + std::strerror(errno));
        }
        group.dirs_.push_back(dir);
        return dir;
    };
    auto set = [&](const fs::path& file, const std::string& value) {
        if (!write_text(file, value)) throw UserError("cannot set " + file.string() + " to " + value);
    };
    const std::string memory_bytes = std::to_string(static_cast<std::int64_t>(limits.memory_mib) << 20);
    if (plan.kind == LimitsPlan::Kind::cgroup_v2) {
        group.v2_ = true;
        const fs::path dir = make(plan.v2_parent);
        group.memory_dir_ = group.cpu_dir_ = group.freezer_dir_ = dir;
        if (limits.memory_mib > 0) {
            set(dir / "memory.max", memory_bytes);
            write_text(dir / "memory.swap.max", "0");  // absent without swap accounting
            write_text(dir / "memory.oom.group", "1");  // the whole bot dies, not one thread
        }
        if (limits.max_processes > 0) set(dir / "pids.max", std::to_string(limits.max_processes));
        return group;
    }
    const fs::path memory = make(plan.v1_memory_parent);
    group.memory_dir_ = memory;
    if (limits.memory_mib > 0) {
        set(memory / "memory.limit_in_bytes", memory_bytes);
        // memsw exists only with swap accounting; it must be set after limit_in_bytes.
        if (fs::exists(memory / "memory.memsw.limit_in_bytes")) write_text(memory / "memory.memsw.limit_in_bytes", memory_bytes);
    }
    if (!plan.v1_pids_parent.empty()) {
        const fs::path pids = make(plan.v1_pids_parent);
        if (limits.max_processes > 0) set(pids / "pids.max", std::to_string(limits.max_processes));
    }
    if (!plan.v1_cpuacct_parent.empty()) group.cpu_dir_ = make(plan.v1_cpuacct_parent);
    if (freezer && !plan.v1_freezer_parent.empty()) group.freezer_dir_ = make(plan.v1_freezer_parent);
    return group;
}

BotCgroup::BotCgroup(BotCgroup&& other) noexcept { *this = std::move(other); }

BotCgroup& BotCgroup::operator=(BotCgroup&& other) noexcept {
    if (this != &other) {
        remove();
        v2_ = other.v2_;
        dirs_ = std::exchange(other.dirs_, {});
        memory_dir_ = std::exchange(other.memory_dir_, {});
        cpu_dir_ = std::exchange(other.cpu_dir_, {});
        freezer_dir_ = std::exchange(other.freezer_dir_, {});
    }
    return *this;
}

std::vector<fs::path> BotCgroup::join_files() const {
    // Under v1 the new child joins by its one thread ("tasks"): a single task writing "0" for
    // itself skips the kernel's global thread-group lock, whose write side waits for an RCU
    // grace period (7-13 ms here, once per match) when cgroup.procs is written. The child of a
    // fork has one thread, so the thread is the process. v2 has no such file outside threaded
    // subtrees; cgroup.procs it is.
    std::vector<fs::path> files;
    for (const auto& dir : dirs_) files.push_back(dir / (v2_ ? "cgroup.procs" : "tasks"));
    return files;
}

bool BotCgroup::oom_killed() const {
    if (memory_dir_.empty()) return false;
    const auto kills = v2_ ? read_keyed(memory_dir_ / "memory.events", "oom_kill")
                           : read_keyed(memory_dir_ / "memory.oom_control", "oom_kill");
    return kills.value_or(0) > 0;
}

std::optional<std::int64_t> BotCgroup::peak_memory_kib() const {
    if (memory_dir_.empty()) return std::nullopt;
    // memory.peak needs kernel >= 5.19 on v2 (planowanie.md 6.1).
    const auto bytes = v2_ ? read_number(memory_dir_ / "memory.peak") : read_number(memory_dir_ / "memory.max_usage_in_bytes");
    if (!bytes) return std::nullopt;
    return *bytes / 1024;
}

std::optional<std::chrono::nanoseconds> BotCgroup::cpu_used() const {
    if (cpu_dir_.empty()) return std::nullopt;
    if (v2_) {
        const auto usec = read_keyed(cpu_dir_ / "cpu.stat", "usage_usec");
        if (!usec) return std::nullopt;
        return std::chrono::microseconds(*usec);
    }
    const auto ns = read_number(cpu_dir_ / "cpuacct.usage");
    if (!ns) return std::nullopt;
    return std::chrono::nanoseconds(*ns);
}

std::vector<pid_t> BotCgroup::members() const {
    std::vector<pid_t> pids;
    for (const auto& dir : dirs_) {
        const auto text = read_text(dir / "cgroup.procs");
        if (!text) continue;
        std::istringstream in(*text);
        pid_t pid = 0;
        while (in >> pid) {
            if (std::find(pids.begin(), pids.end(), pid) == pids.end()) pids.push_back(pid);
        }
    }
    return pids;
}

bool BotCgroup::freeze(bool frozen) const {
    if (freezer_dir_.empty()) return false;
    if (v2_) return write_text(freezer_dir_ / "cgroup.freeze", frozen ? "1" : "0");
    return write_text(freezer_dir_ / "freezer.state", frozen ? "FROZEN" : "THAWED");
}

void BotCgroup::signal_all(int sig) const {
    if (dirs_.empty()) return;
    if (v2_ && sig == SIGKILL && write_text(dirs_.front() / "cgroup.kill", "1")) return;
    for (pid_t pid : members()) ::kill(pid, sig);
}

void BotCgroup::remove() {
    for (const auto& dir : dirs_) {
        // The kernel may need a moment after the last member died; a few short retries.
        for (int attempt = 0; attempt < 50; ++attempt) {
            if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) break;
            if (errno != EBUSY) {
                spdlog::warn("cannot remove cgroup {}: {}", dir.string(), std::strerror(errno));
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    }
    dirs_.clear();
    memory_dir_.clear();
    cpu_dir_.clear();
    freezer_dir_.clear();
}

}  // namespace arb

// The confined bot's syscall filter, built with libseccomp in the parent and exported as a BPF
// program that the child installs with one system call.
//
// Default ALLOW with a deny list (not a Docker-style allow list): a program the arbiter did not
// foresee (an interpreter calling some newer, harmless system call) keeps working, and the list
// below names exactly what a bot loses. The list is Docker's default profile (moby/profiles,
// seccomp/default.json) read as "what a container without added capabilities is refused". ptrace
// stays allowed, as Docker allows it on kernels >= 4.8: a confined bot reaches only its own
// processes (its own PID namespace and user id), and sanitizers' leak checkers need it.
//
// Denied calls answer EPERM (a kill would turn an innocent probe, say a runtime checking for
// io_uring, into a crash); clone3, openat2 and the inotify calls answer ENOSYS, so that callers
// fall back; locks answer 0 without running ("seat_channels" below).
//
// Foreign architectures are denied as a whole, not filtered: the program holds the native
// architecture only, and libseccomp makes every other one (i386 `int 0x80` on x86_64, the x32
// calling convention's syscall numbers with bit 30 set, 32-bit ARM on aarch64) take the
// "bad architecture" action, set here to EPERM too. Filtering them as well would double the
// program for 32-bit bots, which contests do not ship, and the compat entry points have been the
// kernel's most exploited ones.
#include "core/confine/syscall_filter.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"

namespace arb {

namespace {

// How a denied call is matched.
enum class Match {
    always,          // every call
    namespace_flag,  // clone with any CLONE_NEW* flag
    personality,     // personality other than the values Docker lets through
    socket_family,   // socket(AF_ALG) and socket(AF_VSOCK)
    enosys,          // clone3: ENOSYS instead of EPERM
    set_id_mode,     // a mode argument (`argument`) with the set-user-ID or set-group-ID bit
    no_op,           // every call answers 0 without running (flock)
    file_signal,     // fcntl's lock, lease and directory-notification commands
    no_wait,         // preadv2/pwritev2 with RWF_NOWAIT (`argument`: the flags)
    evict_advice,    // fadvise64 POSIX_FADV_DONTNEED, madvise MADV_COLD/MADV_PAGEOUT (`argument`: the advice)
    shared_read_only,  // mmap of a file MAP_SHARED without PROT_WRITE
};

struct DeniedCall {
    std::string_view name;
    std::string_view group;  // "" when the call is allowed only by its own name
    Match match = Match::always;
    unsigned argument = 0;  // set_id_mode: which argument is the mode
};

// The deny list. Names this libseccomp or architecture does not know (the 32-bit-only calls on
// a 64-bit build, calls newer than libseccomp 2.5.4 such as lsm_set_self_attr) are skipped.
constexpr DeniedCall kDenied[] = {
    // A set-user-ID file in the bot's own folder: through the idmapped mount it is stored as the
    // folder's owner (root, often), a set-uid-root program on the host for whoever runs it there.
    {"chmod", "set_id_modes", Match::set_id_mode, 1},
    {"fchmod", "set_id_modes", Match::set_id_mode, 1},
    {"fchmodat", "set_id_modes", Match::set_id_mode, 2},
    {"fchmodat2", "set_id_modes", Match::set_id_mode, 2},
    {"creat", "set_id_modes", Match::set_id_mode, 1},
    {"open", "set_id_modes", Match::set_id_mode, 2},
    {"openat", "set_id_modes", Match::set_id_mode, 3},
    {"mknod", "set_id_modes", Match::set_id_mode, 1},
    {"mknodat", "set_id_modes", Match::set_id_mode, 2},
    // openat2 passes its mode in a struct the filter cannot read: ENOSYS, and callers use openat.
    {"openat2", "set_id_modes", Match::enosys},
    // Seats of one match see the same inodes (/usr, /etc, a program two seats share): whatever
    // one seat can do to an inode that another can see is a channel between them, fast enough to
    // pass a hidden hand. Locks of every kind and leases are answered without running (a lock
    // always granted, nothing held: the answer is the same whatever the other seat does; a query
    // of a lock is refused), watches are refused as absent, and so are the ways to see or empty
    // another seat's page cache without reading (RWF_NOWAIT, cachestat, eviction advice). A
    // futex on a file mapped MAP_SHARED is keyed by the inode: mapping a file shared takes write
    // access, which no seat has to a shared file. What stays is timing (docs/core.md).
    {"flock", "seat_channels", Match::no_op},
    {"fcntl", "seat_channels", Match::file_signal},
    {"inotify_init", "seat_channels", Match::enosys},
    {"inotify_init1", "seat_channels", Match::enosys},
    {"inotify_add_watch", "seat_channels", Match::enosys},
    {"cachestat", "seat_channels", Match::enosys},
    {"preadv2", "seat_channels", Match::no_wait, 5},
    {"pwritev2", "seat_channels", Match::no_wait, 5},
    {"fadvise64", "seat_channels", Match::evict_advice, 3},
    {"madvise", "seat_channels", Match::evict_advice, 2},
    {"mmap", "seat_channels", Match::shared_read_only},
    // New namespaces give their creator every capability inside (a user namespace) and open the
    // kernel code behind them (netfilter, mounts) to an unprivileged process.
    {"unshare", "namespaces"},
    {"setns", "namespaces"},
    {"clone", "namespaces", Match::namespace_flag},
    // clone3 takes its flags in a struct in the caller's memory, which a seccomp filter cannot
    // read (it sees registers only), so its namespace flags cannot be checked. ENOSYS makes
    // glibc (pthread_create, posix_spawn, fork since 2.34) and other runtimes fall back to clone,
    // whose flags are a register the filter does check; EPERM would be taken as a real failure.
    {"clone3", "namespaces", Match::enosys},
    // The mount family: a new view of the file system, or a way out of the bot's.
    {"mount", "mounts"},
    {"umount", "mounts"},
    {"umount2", "mounts"},
    {"pivot_root", "mounts"},
    {"chroot", "mounts"},
    {"move_mount", "mounts"},
    {"open_tree", "mounts"},
    {"fsopen", "mounts"},
    {"fsconfig", "mounts"},
    {"fsmount", "mounts"},
    {"fspick", "mounts"},
    {"mount_setattr", "mounts"},
    // io_uring: a second system call interface that seccomp does not see into.
    {"io_uring_setup", "io_uring"},
    {"io_uring_enter", "io_uring"},
    {"io_uring_register", "io_uring"},
    // Keyrings are not namespaced: a bot reads the keys of its uid (root's) and leaves keys for
    // the next bot given the same id.
    {"keyctl", "keyring"},
    {"add_key", "keyring"},
    {"request_key", "keyring"},
    // Kernel modules and kexec: the kernel itself.
    {"init_module", "modules"},
    {"finit_module", "modules"},
    {"delete_module", "modules"},
    {"create_module", "modules"},
    {"query_module", "modules"},
    {"get_kernel_syms", "modules"},
    {"kexec_load", "kexec"},
    {"kexec_file_load", "kexec"},
    // Other processes' memory and state.
    {"process_vm_readv", "tracing"},
    {"process_vm_writev", "tracing"},
    {"process_madvise", "tracing"},
    {"pidfd_getfd", "tracing"},
    {"kcmp", "tracing"},
    // NUMA placement: Docker gives it only with CAP_SYS_NICE (it moves other processes' pages).
    {"get_mempolicy", "numa"},
    {"set_mempolicy", "numa"},
    {"set_mempolicy_home_node", "numa"},
    {"mbind", "numa"},
    {"migrate_pages", "numa"},
    {"move_pages", "numa"},
    // The machine's clock.
    {"settimeofday", "clock"},
    {"clock_settime", "clock"},
    {"clock_settime64", "clock"},
    {"stime", "clock"},
    // Large kernel surfaces a bot has no use for: performance counters (side channels), BPF
    // programs, userfaultfd (the classic way to win a kernel race).
    {"perf_event_open", ""},
    {"bpf", ""},
    {"userfaultfd", ""},
    {"fanotify_init", ""},
    {"lookup_dcookie", ""},
    // Execution domains that weaken the bot's own hardening (ADDR_NO_RANDOMIZE,
    // READ_IMPLIES_EXEC, MMAP_PAGE_ZERO); Linux, 32-bit uname, UNAME26 and the query stay open.
    {"personality", "", Match::personality},
    // The kernel crypto socket interface and sockets to the hypervisor.
    {"socket", "", Match::socket_family},
    // Administration of the host: accounting, reboot, swap, names, the kernel log, quotas, the
    // terminal, I/O ports, obsolete interfaces and file handles that bypass path permissions.
    {"acct", ""},
    {"reboot", ""},
    {"swapon", ""},
    {"swapoff", ""},
    {"sethostname", ""},
    {"setdomainname", ""},
    {"syslog", ""},
    {"quotactl", ""},
    {"quotactl_fd", ""},
    {"vhangup", ""},
    {"ioperm", ""},
    {"iopl", ""},
    {"vm86", ""},
    {"vm86old", ""},
    {"_sysctl", ""},
    {"sysfs", ""},
    {"ustat", ""},
    {"uselib", ""},
    {"nfsservctl", ""},
    {"open_by_handle_at", ""},
    {"lsm_get_self_attr", ""},
    {"lsm_set_self_attr", ""},
    {"lsm_list_modules", ""},
    // Numbers Linux reserves and never implemented (ENOSYS either way).
    {"afs_syscall", ""},
    {"getpmsg", ""},
    {"putpmsg", ""},
    {"security", ""},
    {"tuxcall", ""},
    {"vserver", ""},
};

// clone's flags argument: the first everywhere but s390 (CLONE_BACKWARDS2: stack, then flags).
// aarch64's CLONE_BACKWARDS only swaps tls and child_tid.
#if defined(__s390__) || defined(__s390x__)
constexpr unsigned kCloneFlagsArgument = 1;
#else
constexpr unsigned kCloneFlagsArgument = 0;
#endif

constexpr std::uint64_t kNamespaceFlags[] = {CLONE_NEWNS,  CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                             CLONE_NEWUSER, CLONE_NEWPID,   CLONE_NEWNET};

// The personality values Docker lets through: PER_LINUX, PER_LINUX32, UNAME26 with either, and
// 0xffffffff (query only).
constexpr std::uint32_t kPersonalityBits = 0x0008 | 0x20000;  // PER_LINUX32 | UNAME26

std::vector<std::string> all_names() {
    std::vector<std::string> names;
    for (const auto& call : kDenied) {
        names.emplace_back(call.name);
        if (!call.group.empty() && std::find(names.begin(), names.end(), call.group) == names.end())
            names.emplace_back(call.group);
    }
    return names;
}

bool is_group(std::string_view name) {
    return !name.empty() && std::any_of(std::begin(kDenied), std::end(kDenied), [&](const DeniedCall& c) { return c.group == name; });
}

bool is_denied_call(std::string_view name) {
    return std::any_of(std::begin(kDenied), std::end(kDenied), [&](const DeniedCall& c) { return c.name == name; });
}

// Sorted, once each; a name neither denied nor a group is a UserError.
std::vector<std::string> checked_names(const std::vector<std::string>& allowed) {
    std::vector<std::string> names;
    for (const auto& name : allowed) {
        if (name.empty()) throw UserError("allowed syscalls: an empty name");
        if (is_denied_call(name) || is_group(name)) {
            names.push_back(name);
            continue;
        }
        if (seccomp_syscall_resolve_name(name.c_str()) != __NR_SCMP_ERROR)
            throw UserError("allowed syscall '" + name + "': the syscall filter does not deny it" +
                            did_you_mean(name, all_names()));
        throw UserError("allowed syscalls: unknown name '" + name + "'" + did_you_mean(name, all_names()));
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

struct ContextDeleter {
    void operator()(void* context) const { seccomp_release(context); }
};
using Context = std::unique_ptr<void, ContextDeleter>;

void add_rule(const Context& context, std::uint32_t action, int number, std::string_view name,
              const std::vector<scmp_arg_cmp>& comparisons) {
    const int rc = seccomp_rule_add_array(context.get(), action, number, static_cast<unsigned>(comparisons.size()),
                                          comparisons.empty() ? nullptr : comparisons.data());
    if (rc != 0)
        throw std::system_error(-rc, std::generic_category(), "libseccomp: rule for " + std::string(name));
}

// The comparisons look at the low 32 bits only where the kernel reads an int: a caller cannot
// slip past with junk in the upper half of the register.
scmp_arg_cmp low_bits_equal(unsigned argument, std::uint32_t mask, std::uint32_t value) {
    return scmp_arg_cmp{argument, SCMP_CMP_MASKED_EQ, mask, value};
}

// fcntl's commands that lock, lease or watch an inode, and what each answers.
void add_file_signal_rules(const Context& context, const DeniedCall& call, int number) {
    struct Command {
        std::uint32_t command;
        std::uint32_t action;
    };
    const Command commands[] = {
        {F_SETLK, SCMP_ACT_ERRNO(0)},     {F_SETLKW, SCMP_ACT_ERRNO(0)},   {F_OFD_SETLK, SCMP_ACT_ERRNO(0)},
        {F_OFD_SETLKW, SCMP_ACT_ERRNO(0)}, {F_GETLK, SCMP_ACT_ERRNO(EINVAL)}, {F_OFD_GETLK, SCMP_ACT_ERRNO(EINVAL)},
        {F_SETLEASE, SCMP_ACT_ERRNO(EPERM)}, {F_GETLEASE, SCMP_ACT_ERRNO(EPERM)}, {F_NOTIFY, SCMP_ACT_ERRNO(EPERM)},
    };
    for (const Command& c : commands) add_rule(context, c.action, number, call.name, {low_bits_equal(1, 0xffffffffu, c.command)});
}

void add_rules(const Context& context, const DeniedCall& call, int number) {
    const std::uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
    switch (call.match) {
    case Match::always: add_rule(context, eperm, number, call.name, {}); break;
    case Match::enosys: add_rule(context, SCMP_ACT_ERRNO(ENOSYS), number, call.name, {}); break;
    case Match::no_op: add_rule(context, SCMP_ACT_ERRNO(0), number, call.name, {}); break;
    case Match::file_signal: add_file_signal_rules(context, call, number); break;
    case Match::no_wait:
        add_rule(context, SCMP_ACT_ERRNO(EOPNOTSUPP), number, call.name, {low_bits_equal(call.argument, RWF_NOWAIT, RWF_NOWAIT)});
        break;
    case Match::evict_advice:
        // fadvise64's POSIX_FADV_DONTNEED; madvise's MADV_COLD and MADV_PAGEOUT.
        for (const std::uint32_t advice : call.argument == 3 ? std::vector<std::uint32_t>{POSIX_FADV_DONTNEED}
                                                              : std::vector<std::uint32_t>{MADV_COLD, MADV_PAGEOUT})
            add_rule(context, SCMP_ACT_ERRNO(0), number, call.name, {low_bits_equal(call.argument, 0xffffffffu, advice)});
        break;
    case Match::shared_read_only:
        // flags & MAP_TYPE is MAP_SHARED or MAP_SHARED_VALIDATE, and prot has no PROT_WRITE.
        for (const std::uint32_t type : {std::uint32_t{MAP_SHARED}, std::uint32_t{MAP_SHARED_VALIDATE}})
            add_rule(context, SCMP_ACT_ERRNO(EACCES), number, call.name,
                     {low_bits_equal(3, MAP_TYPE, type), low_bits_equal(2, PROT_WRITE, 0)});
        break;
    case Match::namespace_flag:
        // One rule per flag: libseccomp has no "masked value is not zero" comparison.
        for (const std::uint64_t flag : kNamespaceFlags)
            add_rule(context, eperm, number, call.name,
                     {scmp_arg_cmp{kCloneFlagsArgument, SCMP_CMP_MASKED_EQ, flag, flag}});
        break;
    case Match::set_id_mode:
        for (const std::uint32_t bit : {std::uint32_t{S_ISUID}, std::uint32_t{S_ISGID}})
            add_rule(context, eperm, number, call.name, {low_bits_equal(call.argument, bit, bit)});
        break;
    case Match::socket_family:
        for (const std::uint32_t family : {AF_ALG, AF_VSOCK})
            add_rule(context, eperm, number, call.name, {low_bits_equal(0, 0xffffffffu, family)});
        break;
    case Match::personality:
        // "Not one of the allowed values" in rules of one comparison each (a rule may compare an
        // argument once): deny when bit 31 is clear and a bit outside PER_LINUX32 | UNAME26 is
        // set, or when bit 31 is set and any other bit is clear (everything but 0xffffffff).
        for (std::uint32_t bit = 0; bit < 31; ++bit) {
            const std::uint32_t one = 1u << bit, top = 1u << 31;
            if (!(kPersonalityBits & one)) add_rule(context, eperm, number, call.name, {low_bits_equal(0, one | top, one)});
            add_rule(context, eperm, number, call.name, {low_bits_equal(0, one | top, top)});
        }
        break;
    }
}

std::vector<sock_filter> exported_program(const Context& context) {
    const UniqueFd memfd(::memfd_create("arbiter-syscall-filter", MFD_CLOEXEC));
    if (!memfd.valid()) throw std::system_error(errno, std::generic_category(), "memfd_create");
    if (const int rc = seccomp_export_bpf(context.get(), memfd.get()); rc != 0)
        throw std::system_error(-rc, std::generic_category(), "libseccomp: export");
    struct stat status {};
    if (::fstat(memfd.get(), &status) != 0) throw std::system_error(errno, std::generic_category(), "fstat");
    const auto bytes = static_cast<std::size_t>(status.st_size);
    if (bytes == 0 || bytes % sizeof(sock_filter) != 0 || bytes / sizeof(sock_filter) > BPF_MAXINSNS)
        throw std::logic_error("libseccomp exported a program of " + std::to_string(bytes) + " bytes");
    std::vector<sock_filter> program(bytes / sizeof(sock_filter));
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::pread(memfd.get(), reinterpret_cast<char*>(program.data()) + done, bytes - done,
                                  static_cast<off_t>(done));
        if (n <= 0) throw std::system_error(n < 0 ? errno : EIO, std::generic_category(), "reading the filter");
        done += static_cast<std::size_t>(n);
    }
    return program;
}

bool lets_through(const std::vector<std::string>& allowed, const DeniedCall& call) {
    return std::binary_search(allowed.begin(), allowed.end(), std::string(call.name)) ||
           (!call.group.empty() && std::binary_search(allowed.begin(), allowed.end(), std::string(call.group)));
}

SyscallFilter built_filter(std::vector<std::string> allowed) {
    Context context(seccomp_init(SCMP_ACT_ALLOW));
    if (!context) throw std::runtime_error("libseccomp: cannot make a filter");
    if (const int rc = seccomp_attr_set(context.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(EPERM)); rc != 0)
        throw std::system_error(-rc, std::generic_category(), "libseccomp: bad-architecture action");
    // A binary tree of the call numbers instead of a list: the kernel walks every call number
    // through the filter when it is installed (to cache the always-allowed ones), with the
    // bot's thread's signal lock held, once per bot; a list of ~100 rules made that a fifth of
    // a millisecond of every start.
    if (const int rc = seccomp_attr_set(context.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2); rc != 0)
        throw std::system_error(-rc, std::generic_category(), "libseccomp: binary tree");
    for (const auto& call : kDenied) {
        if (lets_through(allowed, call)) continue;
        const int number = seccomp_syscall_resolve_name(std::string(call.name).c_str());
        // Unknown here, or a pseudo-number for a call this architecture lacks.
        if (number < 0) continue;
        add_rules(context, call, number);
    }
    return SyscallFilter{exported_program(context), std::move(allowed)};
}

}  // namespace

sock_fprog SyscallFilter::program() const {
    return sock_fprog{static_cast<unsigned short>(instructions.size()), const_cast<sock_filter*>(instructions.data())};
}

const SyscallFilter& syscall_filter(const std::vector<std::string>& allowed) {
    std::vector<std::string> names = checked_names(allowed);
    static std::mutex mutex;
    static std::map<std::vector<std::string>, SyscallFilter> filters;  // nodes never move
    const std::lock_guard lock(mutex);
    auto found = filters.find(names);
    if (found == filters.end()) found = filters.emplace(names, built_filter(names)).first;
    return found->second;
}

int install_syscall_filter(const sock_fprog& program) {
    // seccomp(2) since Linux 3.17; prctl is the older door to the same filter.
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0) return 0;
    if (errno != ENOSYS) return errno;
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) == 0) return 0;
    return errno;
}

UniqueFd syscall_filter_memfd(const SyscallFilter& filter) {
    UniqueFd memfd(::memfd_create("arbiter-syscall-filter", MFD_ALLOW_SEALING));
    if (!memfd.valid()) throw std::system_error(errno, std::generic_category(), "memfd_create");
    const auto* bytes = reinterpret_cast<const char*>(filter.instructions.data());
    const std::size_t size = filter.instructions.size() * sizeof(sock_filter);
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(memfd.get(), bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::system_error(n < 0 ? errno : EIO, std::generic_category(), "writing the filter");
        done += static_cast<std::size_t>(n);
    }
    // Sealed: whoever inherits the descriptor reads the program as written.
    if (::fcntl(memfd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0 ||
        ::lseek(memfd.get(), 0, SEEK_SET) != 0)
        throw std::system_error(errno, std::generic_category(), "sealing the filter");
    return memfd;
}

std::vector<std::string> denied_syscall_names() {
    std::vector<std::string> names;
    for (const auto& call : kDenied) names.emplace_back(call.name);
    return names;
}

std::vector<std::string> syscall_filter_groups() {
    std::vector<std::string> groups;
    for (const auto& call : kDenied)
        if (!call.group.empty() && std::find(groups.begin(), groups.end(), call.group) == groups.end())
            groups.emplace_back(call.group);
    return groups;
}

std::vector<std::string> syscall_group_members(const std::string& group) {
    std::vector<std::string> members;
    for (const auto& call : kDenied)
        if (call.group == group) members.emplace_back(call.name);
    return members;
}

}  // namespace arb

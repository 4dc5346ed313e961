// The syscall filter's program, asked through a small classic-BPF interpreter what it answers for
// any call, without making the call: every listed call (wholly denied, or for its denied
// arguments), the calls Docker's default profile refuses a container without added capabilities,
// ordinary calls and other architectures.
#include <doctest/doctest.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/confine/syscall_filter.hpp"

using namespace arb;

namespace {

// Runs the program on one seccomp_data, as the kernel would; the opcodes libseccomp emits.
std::uint32_t answer(const std::vector<sock_filter>& program, const seccomp_data& data) {
    std::uint32_t a = 0, x = 0, memory[BPF_MEMWORDS] = {};
    for (std::size_t pc = 0; pc < program.size(); ++pc) {
        const sock_filter& in = program[pc];
        switch (in.code) {
        case BPF_LD | BPF_W | BPF_ABS:
            REQUIRE(in.k + 4 <= sizeof data);
            std::memcpy(&a, reinterpret_cast<const char*>(&data) + in.k, 4);
            break;
        case BPF_LD | BPF_MEM: REQUIRE(in.k < BPF_MEMWORDS); a = memory[in.k]; break;
        case BPF_LDX | BPF_MEM: REQUIRE(in.k < BPF_MEMWORDS); x = memory[in.k]; break;
        case BPF_ST: REQUIRE(in.k < BPF_MEMWORDS); memory[in.k] = a; break;
        case BPF_STX: REQUIRE(in.k < BPF_MEMWORDS); memory[in.k] = x; break;
        case BPF_ALU | BPF_AND | BPF_K: a &= in.k; break;
        case BPF_ALU | BPF_OR | BPF_K: a |= in.k; break;
        case BPF_MISC | BPF_TAX: x = a; break;
        case BPF_MISC | BPF_TXA: a = x; break;
        case BPF_JMP | BPF_JA: pc += in.k; break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += a == in.k ? in.jt : in.jf; break;
        case BPF_JMP | BPF_JGT | BPF_K: pc += a > in.k ? in.jt : in.jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += a >= in.k ? in.jt : in.jf; break;
        case BPF_JMP | BPF_JSET | BPF_K: pc += (a & in.k) ? in.jt : in.jf; break;
        case BPF_RET | BPF_K: return in.k;
        default: FAIL("opcode " << in.code << " unknown to the interpreter"); return 0;
        }
    }
    FAIL("the program ran off its end");
    return 0;
}

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kEperm = SECCOMP_RET_ERRNO | EPERM;

std::uint32_t answer_for(const SyscallFilter& filter, int number, std::uint64_t arg0 = 0,
                         std::uint64_t arg1 = 0, std::uint32_t arch = seccomp_arch_native()) {
    seccomp_data data{};
    data.nr = number;
    data.arch = arch;
    data.args[0] = arg0;
    data.args[1] = arg1;
    return answer(filter.instructions, data);
}

// The answer to a call whose argument `index` is `value` (the others 0).
std::uint32_t answer_with(const SyscallFilter& filter, int number, unsigned index, std::uint64_t value) {
    seccomp_data data{};
    data.nr = number;
    data.arch = seccomp_arch_native();
    data.args[index] = value;
    return answer(filter.instructions, data);
}

int number_of(const std::string& name) { return seccomp_syscall_resolve_name(name.c_str()); }

// The answer to a call with the given arguments (the others 0).
std::uint32_t answer_args(const SyscallFilter& filter, int number, std::initializer_list<std::pair<unsigned, std::uint64_t>> args) {
    seccomp_data data{};
    data.nr = number;
    data.arch = seccomp_arch_native();
    for (const auto& [index, value] : args) data.args[index] = value;
    return answer(filter.instructions, data);
}

constexpr std::uint32_t kNoOp = SECCOMP_RET_ERRNO | 0;

// The calls through which seats of one match could signal each other on an inode they share.
void check_seat_channel_rule(const SyscallFilter& filter, const std::string& name, int number) {
    if (name == "flock") {
        CHECK(answer_for(filter, number, 3, LOCK_EX) == kNoOp);
    } else if (name == "fcntl") {
        for (const std::uint64_t command : {F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW})
            CHECK(answer_for(filter, number, 3, command) == kNoOp);
        for (const std::uint64_t command : {F_GETLK, F_OFD_GETLK}) CHECK(answer_for(filter, number, 3, command) == (SECCOMP_RET_ERRNO | EINVAL));
        for (const std::uint64_t command : {F_SETLEASE, F_GETLEASE, F_NOTIFY}) CHECK(answer_for(filter, number, 3, command) == kEperm);
        for (const std::uint64_t command : {F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC, F_ADD_SEALS, F_SETPIPE_SZ})
            CHECK(answer_for(filter, number, 3, command) == kAllow);
    } else if (name == "preadv2" || name == "pwritev2") {
        CHECK(answer_args(filter, number, {{5, 0}}) == kAllow);
        CHECK(answer_args(filter, number, {{5, RWF_HIPRI}}) == kAllow);
        CHECK(answer_args(filter, number, {{5, RWF_NOWAIT}}) == (SECCOMP_RET_ERRNO | EOPNOTSUPP));
    } else if (name == "fadvise64") {
        for (const std::uint64_t advice : {POSIX_FADV_NORMAL, POSIX_FADV_SEQUENTIAL, POSIX_FADV_WILLNEED})
            CHECK(answer_args(filter, number, {{3, advice}}) == kAllow);
        CHECK(answer_args(filter, number, {{3, POSIX_FADV_DONTNEED}}) == kNoOp);
    } else if (name == "madvise") {
        for (const std::uint64_t advice : {MADV_DONTNEED, MADV_FREE, MADV_WILLNEED, MADV_HUGEPAGE})
            CHECK(answer_args(filter, number, {{2, advice}}) == kAllow);
        for (const std::uint64_t advice : {MADV_COLD, MADV_PAGEOUT}) CHECK(answer_args(filter, number, {{2, advice}}) == kNoOp);
    } else if (name == "mmap") {
        CHECK(answer_args(filter, number, {{2, PROT_READ}, {3, MAP_PRIVATE}}) == kAllow);
        CHECK(answer_args(filter, number, {{2, PROT_READ | PROT_WRITE}, {3, MAP_SHARED}}) == kAllow);
        CHECK(answer_args(filter, number, {{2, PROT_READ}, {3, MAP_PRIVATE | MAP_ANONYMOUS}}) == kAllow);
        for (const std::uint64_t type : {MAP_SHARED, MAP_SHARED_VALIDATE, MAP_SHARED | MAP_POPULATE})
            CHECK(answer_args(filter, number, {{2, PROT_READ}, {3, type}}) == (SECCOMP_RET_ERRNO | EACCES));
    } else {  // inotify, cachestat: absent
        CHECK(answer_for(filter, number) == (SECCOMP_RET_ERRNO | ENOSYS));
    }
}

}  // namespace

TEST_CASE("syscall filter program: every listed call is denied and the conditional ones for their arguments only") {
    const SyscallFilter& filter = syscall_filter({});
    const std::vector<std::string> seat_channels = syscall_group_members("seat_channels");
    REQUIRE(seat_channels.size() == 11);
    int checked = 0;
    for (const auto& name : denied_syscall_names()) {
        const int number = number_of(name);
        if (number < 0) continue;  // not on this architecture, or newer than this libseccomp
        CAPTURE(name);
        ++checked;
        if (name == "clone") {
            CHECK(answer_for(filter, number, SIGCHLD) == kAllow);
            CHECK(answer_for(filter, number, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD) == kAllow);
            for (const std::uint64_t flag : {CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER,
                                             CLONE_NEWPID, CLONE_NEWNET})
                CHECK(answer_for(filter, number, flag | SIGCHLD) == kEperm);
        } else if (name == "clone3" || name == "openat2") {
            CHECK(answer_for(filter, number) == (SECCOMP_RET_ERRNO | ENOSYS));
        } else if (std::find(seat_channels.begin(), seat_channels.end(), name) != seat_channels.end()) {
            check_seat_channel_rule(filter, name, number);
        } else if (name == "personality") {
            for (const std::uint64_t usual : {0x0UL, 0x8UL, 0x20000UL, 0x20008UL, 0xffffffffUL})
                CHECK(answer_for(filter, number, usual) == kAllow);
            for (int bit = 0; bit < 32; ++bit)
                if (bit != 3 && bit != 17) CHECK(answer_for(filter, number, 1UL << bit) == kEperm);
            for (const std::uint64_t other : {0xfffffffeUL, 0x7fffffffUL, 0x80000008UL, 0x1UL << 32 | 0x40000UL})
                CHECK(answer_for(filter, number, other) == kEperm);
        } else if (name == "chmod" || name == "fchmod" || name == "fchmodat" || name == "fchmodat2" ||
                   name == "creat" || name == "open" || name == "openat" || name == "mknod" || name == "mknodat") {
            // The mode's argument: set-user-ID and set-group-ID bits refused, every other mode allowed.
            const unsigned mode = name == "chmod" || name == "fchmod" || name == "creat" || name == "mknod" ? 1
                                  : name == "open"                                                          ? 2
                                  : name == "openat"                                                        ? 3
                                                                                                            : 2;
            for (const std::uint64_t plain : {0UL, 0644UL, 0755UL, 01777UL, 0777UL})
                CHECK(answer_with(filter, number, mode, plain) == kAllow);
            for (const std::uint64_t set_id : {04755UL, 02755UL, 06755UL, 04000UL})
                CHECK(answer_with(filter, number, mode, set_id) == kEperm);
        } else if (name == "socket") {
            for (const std::uint64_t family : {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_NFC})
                CHECK(answer_for(filter, number, family) == kAllow);
            for (const std::uint64_t family : {std::uint64_t{AF_ALG}, std::uint64_t{AF_VSOCK}, 0xffffffff00000000UL | AF_ALG})
                CHECK(answer_for(filter, number, family) == kEperm);
        } else {
            CHECK(answer_for(filter, number) == kEperm);
            CHECK(answer_for(filter, number, 0xffffffffffffffffUL, 1) == kEperm);
        }
    }
    CHECK(checked > 60);
}

TEST_CASE("syscall filter program: what Docker's default profile refuses a container without added capabilities") {
    // moby/profiles seccomp/default.json: the x86_64 calls outside its allow list, those it gives
    // only with a capability (CAP_SYS_ADMIN, _BOOT, _CHROOT, _MODULE, _PACCT, _PTRACE, _RAWIO,
    // _TIME, _TTY_CONFIG, _NICE, _SYSLOG, _BPF, _PERFMON, _DAC_READ_SEARCH); ptrace it allows from
    // kernel 4.8 on, and so does the filter.
    const SyscallFilter& filter = syscall_filter({});
    const char* docker_denies[] = {
        "_sysctl", "acct", "add_key", "afs_syscall", "bpf", "chroot", "clock_settime", "create_module",
        "delete_module", "fanotify_init", "finit_module", "fsconfig", "fsmount", "fsopen", "fspick",
        "get_kernel_syms", "get_mempolicy", "getpmsg", "init_module", "io_uring_enter", "io_uring_register",
        "io_uring_setup", "ioperm", "iopl", "kcmp", "kexec_file_load", "kexec_load", "keyctl", "lookup_dcookie",
        "mbind", "migrate_pages", "mount", "mount_setattr", "move_mount", "move_pages", "nfsservctl",
        "open_by_handle_at", "open_tree", "perf_event_open", "pidfd_getfd", "pivot_root", "process_madvise",
        "process_vm_readv", "process_vm_writev", "putpmsg", "query_module", "quotactl", "quotactl_fd",
        "reboot", "request_key", "security", "set_mempolicy", "set_mempolicy_home_node", "setdomainname",
        "sethostname", "setns", "settimeofday", "swapoff", "swapon", "sysfs", "syslog", "tuxcall", "umount2",
        "unshare", "uselib", "userfaultfd", "ustat", "vhangup", "vserver"};
    for (const std::string name : docker_denies) {
        CAPTURE(name);
        const int number = number_of(name);
        if (number < 0) continue;
        CHECK(answer_for(filter, number) == kEperm);
    }
}

TEST_CASE("syscall filter program: ordinary calls pass and other architectures are refused") {
    const SyscallFilter& filter = syscall_filter({});
    for (const char* name : {"read", "write", "openat", "close", "mmap", "munmap", "brk", "futex", "execve",
                             "exit_group", "wait4", "clock_gettime", "rt_sigaction", "prctl", "seccomp",
                             "memfd_create", "pidfd_open", "setsid", "kill", "getrandom", "ptrace"}) {
        const std::string call = name;
        CAPTURE(call);
        const int number = number_of(name);
        if (number >= 0) CHECK(answer_for(filter, number, 3, 0) == kAllow);
    }
#if defined(__x86_64__)
    CHECK(answer_for(filter, 20 /* getpid on i386 */, 0, 0, AUDIT_ARCH_I386) == kEperm);
    CHECK(answer_for(filter, 0x40000000 | 39 /* getpid through x32 */) == kEperm);
    CHECK(answer_for(filter, 39 /* getpid */) == kAllow);
#endif
    // Loosened: the call's own rule is gone, the others stay.
    const SyscallFilter& loose = syscall_filter({"mount", "tracing"});
    CHECK(answer_for(loose, number_of("mount")) == kAllow);
    CHECK(answer_for(loose, number_of("fsopen")) == kEperm);
    CHECK(answer_for(loose, number_of("ptrace")) == kAllow);
    CHECK(answer_for(loose, number_of("process_vm_writev")) == kAllow);
    CHECK(answer_for(loose, number_of("umount2")) == kEperm);
    CHECK(answer_for(loose, number_of("bpf")) == kEperm);
}

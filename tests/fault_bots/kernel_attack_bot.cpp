// A contestant probing the kernel surface a confined bot should not reach. On each request line
// it tries every attack below and answers one line, each attack as `name=ok` or `name=ERRNO`
// (the errno's name), in this order:
//   userns      unshare(CLONE_NEWUSER), in a child (every capability inside the namespace)
//   mountns     clone(CLONE_NEWNS) (the flags in a register, as the filter sees them)
//   clone3ns    clone3 with CLONE_NEWUSER (flags in memory; the filter answers ENOSYS to clone3)
//   mount       mount a tmpfs on an empty folder it makes in its working folder, in a child
//   io_uring    io_uring_setup
//   perf        perf_event_open on itself
//   keyring     read the session keyring (keyctl)
//   bpf         create a BPF array map
//   userfaultfd userfaultfd
//   ptrace      PTRACE_ATTACH to a child of its own
//   module      finit_module(-1): EBADF where the call is open, EPERM where it is refused
//   kexec       kexec_load with arguments the kernel rejects (EINVAL where open)
//   i386        getpid through int 0x80 (x86_64 only; "SIGSEGV" where the kernel has no i386 entry)
// Attacks that succeed undo themselves (descriptors closed, children reaped, the mount made in a
// child's own namespace or unmounted) and touch nothing outside the bot.
// --tcp: talk to the arbiter over TCP (127.0.0.1:$ARBITER_PORT) instead of stdin/stdout.
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "tests/fault_bots/tcp_stdio.hpp"

namespace {

std::string errno_name(int error) {
    if (error == 0) return "ok";
    const char* name = ::strerrorname_np(error);
    return name ? name : "errno" + std::to_string(error);
}

// "ok" when the call returned >= 0 (closing a returned descriptor when `closes`), else its errno.
std::string result(long rc, bool closes = false) {
    if (rc < 0) return errno_name(errno);
    if (closes) ::close(static_cast<int>(rc));
    return "ok";
}

// Runs `attack` in a child, which exits with 0 or an errno: a namespace or mount it makes dies
// with it, and this process keeps its identity for the next attack.
template <typename Attack>
std::string in_child(Attack attack) {
    const pid_t pid = ::fork();
    if (pid < 0) return "fork:" + errno_name(errno);
    if (pid == 0) ::_exit(attack());
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return ::sigabbrev_np(WTERMSIG(status)) ? std::string("SIG") + ::sigabbrev_np(WTERMSIG(status)) : "signal";
    return errno_name(WEXITSTATUS(status));
}

int error_of(long rc) { return rc < 0 ? errno : 0; }

std::string user_namespace() {
    return in_child([] { return error_of(::syscall(SYS_unshare, CLONE_NEWUSER)); });
}

std::string mount_namespace() {
    const long pid = ::syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, 0, nullptr, nullptr, 0);
    if (pid == 0) ::_exit(0);
    if (pid < 0) return errno_name(errno);
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return "ok";
}

std::string clone3_namespace() {
    struct {
        std::uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
    } args{};
    args.flags = CLONE_NEWUSER;
    args.exit_signal = SIGCHLD;
    const long pid = ::syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) ::_exit(0);
    if (pid < 0) return errno_name(errno);
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return "ok";
}

std::string mount_tmpfs() {
    const std::string folder = "kernel_attack_mount." + std::to_string(::getpid());
    ::mkdir(folder.c_str(), 0700);
    const std::string outcome = in_child([&] {
        // Its own mount namespace where it may make one, so that a success leaves nothing behind.
        if (::syscall(SYS_unshare, CLONE_NEWNS) == 0) ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr);
        if (::mount("none", folder.c_str(), "tmpfs", 0, "size=64k") != 0) return errno;
        ::umount2(folder.c_str(), MNT_DETACH);
        return 0;
    });
    ::rmdir(folder.c_str());
    return outcome;
}

std::string io_uring() {
    io_uring_params params{};
    return result(::syscall(SYS_io_uring_setup, 1, &params), true);
}

std::string perf() {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    return result(::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0), true);
}

std::string keyring() {
    char keys[1024];
    return result(::syscall(SYS_keyctl, KEYCTL_READ, KEY_SPEC_SESSION_KEYRING, keys, sizeof keys));
}

std::string bpf_map() {
    bpf_attr attr{};
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    return result(::syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr), true);
}

std::string userfaultfd() { return result(::syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK), true); }

std::string ptrace_child() {
    const pid_t pid = ::fork();
    if (pid < 0) return "fork:" + errno_name(errno);
    if (pid == 0) {
        for (;;) ::pause();
    }
    const std::string outcome = result(::ptrace(PTRACE_ATTACH, pid, nullptr, nullptr));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return outcome;
}

std::string module() { return result(::syscall(SYS_finit_module, -1, "", 0)); }

std::string kexec() { return result(::syscall(SYS_kexec_load, 0, 1000, nullptr, 0xdead0000UL)); }

std::string i386_entry() {
#if defined(__x86_64__)
    return in_child([] {
        long rc = 20;  // getpid on i386
        asm volatile("int $0x80" : "+a"(rc) : : "memory", "r8", "r9", "r10", "r11");
        return rc < 0 ? static_cast<int>(-rc) : 0;
    });
#else
    return "ENOSYS";
#endif
}

std::string report() {
    return "userns=" + user_namespace() + " mountns=" + mount_namespace() + " clone3ns=" + clone3_namespace() +
           " mount=" + mount_tmpfs() + " io_uring=" + io_uring() + " perf=" + perf() + " keyring=" + keyring() +
           " bpf=" + bpf_map() + " userfaultfd=" + userfaultfd() + " ptrace=" + ptrace_child() +
           " module=" + module() + " kexec=" + kexec() + " i386=" + i386_entry();
}


}  // namespace

// Leak checking is not this bot's business: it only probes the kernel, and leaves what its probes
// made for the exit to release.
extern "C" int __lsan_is_turned_off() { return 1; }

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--tcp") talk_over_tcp();
    std::signal(SIGPIPE, SIG_IGN);
    for (std::string line; std::getline(std::cin, line);) std::cout << report() << std::endl;
}

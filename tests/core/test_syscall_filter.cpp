// The confined bots' syscall filter: each denied class answers EPERM in a child that installed
// it, and the same call does something else in a child that did not (so each check can fail);
// ordinary programs (fork, threads through glibc's clone3 fallback, /bin/sh, Python) still run;
// the program itself, run through a small BPF interpreter, denies every listed call and allows
// ordinary ones; names given to loosen it are checked.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/kcmp.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "core/confine/syscall_filter.hpp"
#include "core/user_error.hpp"
#include "tests/test_scratch.hpp"

using namespace arb;

namespace {

constexpr const char* kMissingPath = "/nonexistent-arbiter-syscall-filter-test";

// 0 when the call succeeded, else its errno.
int outcome(long rc) { return rc < 0 ? errno : 0; }
int closing(long fd) {
    if (fd < 0) return errno;
    ::close(static_cast<int>(fd));
    return 0;
}

// What `probe` returns in a fresh child (0 or an errno), with the filter installed first when
// given; 1000 + the signal when the child was killed, 900 + n when installing failed.
int in_child(const SyscallFilter* filter, const std::function<int()>& probe) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (filter) {
            const sock_fprog program = filter->program();
            if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ::_exit(900);
            if (const int error = install_syscall_filter(program); error != 0) ::_exit(900 % 256 + error);
        }
        ::_exit(probe());
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

// A child through the raw clone call (flags in a register), reaped at once.
int clone_with(unsigned long flags) {
    const long pid = ::syscall(SYS_clone, flags | SIGCHLD, 0, nullptr, nullptr, 0);
    if (pid == 0) ::_exit(0);
    if (pid < 0) return errno;
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return 0;
}

int clone3_plain() {
    struct {
        std::uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
    } args{};
    args.exit_signal = SIGCHLD;
    const long pid = ::syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0) ::_exit(0);
    if (pid < 0) return errno;
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
    return 0;
}

int io_uring_setup_probe() {
    io_uring_params params{};
    return closing(::syscall(SYS_io_uring_setup, 1, &params));
}

int perf_probe() {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    return closing(::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}

int bpf_probe() {
    bpf_attr attr{};
    attr.map_type = BPF_MAP_TYPE_ARRAY;
    attr.key_size = 4;
    attr.value_size = 4;
    attr.max_entries = 1;
    return closing(::syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof attr));
}

int keyring_probe() {
    char keys[256];
    return outcome(::syscall(SYS_keyctl, KEYCTL_READ, KEY_SPEC_SESSION_KEYRING, keys, sizeof keys));
}

int process_vm_probe() {
    int source = 7, target = 0;
    iovec local{&target, sizeof target}, remote{&source, sizeof source};
    return outcome(::syscall(SYS_process_vm_readv, ::getpid(), &local, 1, &remote, 1, 0));
}

int kexec_probe() {
    // Too many segments and unknown flags: refused with EINVAL even for root, never an unload.
    return outcome(::syscall(SYS_kexec_load, 0, 1000, nullptr, 0xdead0000UL));
}

#if defined(__x86_64__)
// getpid through the i386 entry point (the filter sees another architecture).
int i386_getpid() {
    long rc = 20;  // __NR_getpid on i386
    asm volatile("int $0x80" : "+a"(rc) : : "memory", "r8", "r9", "r10", "r11");
    return rc < 0 ? static_cast<int>(-rc) : 0;
}
#endif

struct Probe {
    const char* what;
    bool needs_root;  // without CAP_SYS_ADMIN and friends the kernel itself answers EPERM
    std::function<int()> call;
};

std::vector<Probe> denied_probes() {
    std::vector<Probe> probes = {
        {"unshare(CLONE_NEWUSER)", false, [] { return outcome(::syscall(SYS_unshare, CLONE_NEWUSER)); }},
        {"setns", false, [] { return outcome(::syscall(SYS_setns, -1, 0)); }},
        {"clone(CLONE_NEWUSER)", false, [] { return clone_with(CLONE_NEWUSER); }},
        {"clone(CLONE_NEWNS)", true, [] { return clone_with(CLONE_NEWNS); }},
        {"clone(CLONE_NEWPID)", true, [] { return clone_with(CLONE_NEWPID); }},
        {"clone(CLONE_NEWNET)", true, [] { return clone_with(CLONE_NEWNET); }},
        {"clone(CLONE_NEWIPC)", true, [] { return clone_with(CLONE_NEWIPC); }},
        {"clone(CLONE_NEWUTS)", true, [] { return clone_with(CLONE_NEWUTS); }},
        {"clone(CLONE_NEWCGROUP)", true, [] { return clone_with(CLONE_NEWCGROUP); }},
        {"mount", true, [] { return outcome(::syscall(SYS_mount, "none", kMissingPath, "tmpfs", 0, nullptr)); }},
        {"umount2", true, [] { return outcome(::syscall(SYS_umount2, kMissingPath, 0)); }},
        {"pivot_root", true, [] { return outcome(::syscall(SYS_pivot_root, kMissingPath, kMissingPath)); }},
        {"chroot", true, [] { return outcome(::syscall(SYS_chroot, kMissingPath)); }},
        {"fsopen", true, [] { return closing(::syscall(SYS_fsopen, "tmpfs", 0)); }},
        {"open_tree", true, [] { return closing(::syscall(SYS_open_tree, AT_FDCWD, kMissingPath, 0)); }},
        {"io_uring_setup", false, io_uring_setup_probe},
        {"keyctl (read the session keyring)", false, keyring_probe},
        {"add_key", false,
         [] { return outcome(::syscall(SYS_add_key, "user", "arbiter-test", "x", 1, KEY_SPEC_PROCESS_KEYRING)); }},
        {"request_key", false,
         [] { return outcome(::syscall(SYS_request_key, "user", "arbiter-no-such-key", nullptr, 0)); }},
        {"perf_event_open", false, perf_probe},
        {"bpf", true, bpf_probe},
        {"userfaultfd", true, [] { return closing(::syscall(SYS_userfaultfd, O_CLOEXEC)); }},
        {"init_module", true, [] { return outcome(::syscall(SYS_init_module, nullptr, 0, "")); }},
        {"finit_module", true, [] { return outcome(::syscall(SYS_finit_module, -1, "", 0)); }},
        {"kexec_load", true, kexec_probe},
        {"process_vm_readv", false, process_vm_probe},
        {"kcmp", false, [] { return outcome(::syscall(SYS_kcmp, ::getpid(), ::getpid(), KCMP_VM, 0, 0)); }},
        {"get_mempolicy", false, [] { return outcome(::syscall(SYS_get_mempolicy, nullptr, nullptr, 0, nullptr, 0)); }},
        {"personality(ADDR_NO_RANDOMIZE)", false, [] { return outcome(::syscall(SYS_personality, ADDR_NO_RANDOMIZE)); }},
        {"personality(READ_IMPLIES_EXEC)", false, [] { return outcome(::syscall(SYS_personality, READ_IMPLIES_EXEC)); }},
        {"personality(PER_BSD)", false, [] { return outcome(::syscall(SYS_personality, PER_BSD)); }},
        {"socket(AF_ALG)", false, [] { return closing(::syscall(SYS_socket, AF_ALG, SOCK_SEQPACKET, 0)); }},
        {"socket(AF_ALG) with the upper half of the register set", false,
         [] { return closing(::syscall(SYS_socket, 0xffffffff00000000UL | AF_ALG, SOCK_SEQPACKET, 0)); }},
        {"socket(AF_VSOCK)", false, [] { return closing(::syscall(SYS_socket, AF_VSOCK, SOCK_STREAM, 0)); }},
        {"clock_settime", true,
         [] {
             const timespec now{};
             return outcome(::syscall(SYS_clock_settime, CLOCK_MONOTONIC, &now));
         }},
        {"sethostname (too long)", true,
         [] {
             static const char name[100] = {};
             return outcome(::syscall(SYS_sethostname, name, 65));
         }},
        {"reboot (bad magic)", true, [] { return outcome(::syscall(SYS_reboot, 0, 0, 0, nullptr)); }},
        {"swapon", true, [] { return outcome(::syscall(SYS_swapon, kMissingPath, 0)); }},
        {"syslog", true, [] { return outcome(::syscall(SYS_syslog, 10 /* SYSLOG_ACTION_SIZE_BUFFER */, nullptr, 0)); }},
    };
#if defined(__x86_64__)
    probes.push_back({"x32 getpid", false, [] { return outcome(::syscall(0x40000000 | SYS_getpid)); }});
    probes.push_back({"i386 getpid (int 0x80)", false, i386_getpid});
#endif
    return probes;
}

bool privileged() { return ::geteuid() == 0; }

// The child runs `program` and answers its exit status.
int exec_status(const char* file, std::vector<const char*> argv) {
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execvp(file, const_cast<char* const*>(argv.data()));
        ::_exit(127);
    }
    int status = 0;
    if (::waitpid(pid, &status, 0) < 0) return errno;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

void* thread_body(void* value) { return value; }

int thread_probe() {
    pthread_t thread;
    static int marker = 0;
    if (const int error = ::pthread_create(&thread, nullptr, thread_body, &marker); error != 0) return error;
    void* result = nullptr;
    ::pthread_join(thread, &result);
    return result == &marker ? 0 : 99;
}

int fork_probe() {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(5);
    if (pid < 0) return errno;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 5 ? 0 : 98;
}

}  // namespace

TEST_CASE("syscall filter: every denied class answers EPERM under the filter and something else without it") {
    const SyscallFilter& filter = syscall_filter({});
    for (const auto& probe : denied_probes()) {
        const std::string what = probe.what;
        CAPTURE(what);
        const int without = in_child(nullptr, probe.call);
        const int with = in_child(&filter, probe.call);
        CAPTURE(without);
        CHECK(with == EPERM);
        if (privileged() || !probe.needs_root) CHECK(without != EPERM);
        else if (without == EPERM) MESSAGE(probe.what << ": the kernel refuses it without the filter too (not root)");
    }
}

TEST_CASE("syscall filter: clone3 answers ENOSYS so that glibc falls back to clone and fork and threads and exec still work") {
    const SyscallFilter& filter = syscall_filter({});
    CHECK(in_child(nullptr, clone3_plain) == 0);
    CHECK(in_child(&filter, clone3_plain) == ENOSYS);
    CHECK(in_child(&filter, [] { return clone_with(0); }) == 0);
    CHECK(in_child(&filter, fork_probe) == 0);
    CHECK(in_child(&filter, thread_probe) == 0);
    CHECK(in_child(&filter, [] { return exec_status("/bin/sh", {"sh", "-c", "exit 7"}); }) == 7);
    // Python's threads and subprocess (posix_spawn / vfork) under the filter.
    const char* script =
        "import threading, subprocess, sys\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.append(subprocess.run(['/bin/sh', '-c', 'echo ok'],"
        " capture_output=True, text=True).stdout))\n"
        "t.start(); t.join()\n"
        "sys.exit(0 if out == ['ok\\n'] else 3)\n";
    CHECK(in_child(&filter, [&] { return exec_status("python3", {"python3", "-c", script}); }) == 0);
    // The personality values Docker lets through (the query, 32-bit uname) stay open.
    CHECK(in_child(&filter, [] { return outcome(::syscall(SYS_personality, 0xffffffffUL)); }) == 0);
    CHECK(in_child(&filter, [] { return outcome(::syscall(SYS_personality, PER_LINUX32)); }) == 0);
    CHECK(in_child(&filter, [] { return closing(::syscall(SYS_socket, AF_INET, SOCK_STREAM, 0)); }) == 0);
}

TEST_CASE("syscall filter: a name or a group given as allowed lets exactly that through") {
    const SyscallFilter& perf = syscall_filter({"perf_event_open"});
    CHECK(perf.allowed == std::vector<std::string>{"perf_event_open"});
    CHECK(in_child(&perf, perf_probe) == 0);
    CHECK(in_child(&perf, bpf_probe) == EPERM);
    CHECK(in_child(&perf, io_uring_setup_probe) == EPERM);

    const SyscallFilter& namespaces = syscall_filter({"namespaces", "keyring"});
    CHECK(in_child(&namespaces, [] { return clone_with(CLONE_NEWUSER); }) == 0);
    CHECK(in_child(&namespaces, [] { return outcome(::syscall(SYS_unshare, CLONE_NEWUSER)); }) == 0);
    CHECK(in_child(&namespaces, clone3_plain) == 0);
    CHECK(in_child(&namespaces, keyring_probe) == 0);
    CHECK(in_child(&namespaces, [] { return outcome(::syscall(SYS_chroot, kMissingPath)); }) == EPERM);
    CHECK(syscall_group_members("namespaces") == std::vector<std::string>{"unshare", "setns", "clone", "clone3"});
    // A group name is never also a call's name, so each name means one thing.
    const auto calls = denied_syscall_names();
    for (const auto& group : syscall_filter_groups()) {
        CAPTURE(group);
        CHECK(std::find(calls.begin(), calls.end(), group) == calls.end());
        CHECK(!syscall_group_members(group).empty());
    }

    // One filter per distinct list, whatever the order or repetitions.
    CHECK(&syscall_filter({"keyring", "namespaces", "keyring"}) == &namespaces);
    CHECK(&syscall_filter({}) == &syscall_filter({}));
    CHECK(&syscall_filter({}) != &perf);
}

TEST_CASE("syscall filter: unknown and unfiltered names are refused with a suggestion") {
    CHECK_THROWS_WITH_AS(syscall_filter({"perf_event_opn"}),
                         "allowed syscalls: unknown name 'perf_event_opn' (did you mean 'perf_event_open'?)", UserError);
    CHECK_THROWS_WITH_AS(syscall_filter({"namespace"}), doctest::Contains("did you mean 'namespaces'"), UserError);
    CHECK_THROWS_WITH_AS(syscall_filter({"read"}), doctest::Contains("the syscall filter does not deny it"), UserError);
    CHECK_THROWS_AS(syscall_filter({""}), UserError);
    CHECK_THROWS_AS(syscall_filter({"mount", ""}), UserError);
}

TEST_CASE("syscall filter: the memfd for bubblewrap holds the program sealed at offset 0 and inheritable") {
    const SyscallFilter& filter = syscall_filter({});
    const UniqueFd memfd = syscall_filter_memfd(filter);
    REQUIRE(memfd.valid());
    CHECK((::fcntl(memfd.get(), F_GETFD) & FD_CLOEXEC) == 0);
    CHECK(::lseek(memfd.get(), 0, SEEK_CUR) == 0);
    std::vector<sock_filter> read_back(filter.instructions.size() + 1);
    const ssize_t bytes = ::read(memfd.get(), read_back.data(), read_back.size() * sizeof(sock_filter));
    REQUIRE(bytes == static_cast<ssize_t>(filter.instructions.size() * sizeof(sock_filter)));
    CHECK(std::memcmp(read_back.data(), filter.instructions.data(), static_cast<std::size_t>(bytes)) == 0);
    CHECK(::write(memfd.get(), "x", 1) < 0);  // sealed
    CHECK(filter.program().len == filter.instructions.size());
    CHECK(filter.program().filter == filter.instructions.data());
}

namespace {

// A file of the suite's scratch folder, locked by the test process while the children probe it.
std::string scratch_file(const char* name) {
    const std::string path = (arb::testing::scratch_root() / name).string();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        (void)!::write(fd, "shared\n", 7);
        ::close(fd);
    }
    return path;
}

}  // namespace

TEST_CASE("syscall filter: a lock, a watch, a shared read-only mapping or a cache probe on a shared file answers the same whatever other seats do") {
    const SyscallFilter& filter = syscall_filter({});
    const std::string path = scratch_file("seat-channel");
    // Another seat holds the file locked.
    const int holder = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(holder >= 0);
    REQUIRE(::flock(holder, LOCK_EX) == 0);
    auto try_lock = [&] {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        return outcome(::flock(fd, LOCK_EX | LOCK_NB));
    };
    CHECK(in_child(nullptr, try_lock) == EWOULDBLOCK);  // the lock is seen: one bit passed
    CHECK(in_child(&filter, try_lock) == 0);            // answered without running
    auto posix_lock = [&] {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct flock query {};
        query.l_type = F_RDLCK;
        return outcome(::fcntl(fd, F_GETLK, &query));
    };
    CHECK(in_child(nullptr, posix_lock) == 0);
    CHECK(in_child(&filter, posix_lock) == EINVAL);
    auto shared_read_only = [&] {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        void* map = ::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
        return map == MAP_FAILED ? errno : 0;
    };
    CHECK(in_child(nullptr, shared_read_only) == 0);
    CHECK(in_child(&filter, shared_read_only) == EACCES);
    auto watch = [] { return closing(::syscall(SYS_inotify_init1, IN_CLOEXEC)); };
    CHECK(in_child(nullptr, watch) == 0);
    CHECK(in_child(&filter, watch) == ENOSYS);
    auto cached = [&] {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        char byte = 0;
        iovec one{&byte, 1};
        const long n = ::syscall(SYS_preadv2, fd, &one, 1, 0, 0, RWF_NOWAIT);
        return n < 0 && errno == EAGAIN ? 0 : outcome(n);  // EAGAIN: not cached, which is an answer too
    };
    CHECK(in_child(nullptr, cached) == 0);
    CHECK(in_child(&filter, cached) == EOPNOTSUPP);
    auto set_id_node = [&] {
        const std::string fifo = path + "-fifo";
        ::unlink(fifo.c_str());
        return outcome(::mknodat(AT_FDCWD, fifo.c_str(), S_IFIFO | S_ISUID | 0644, 0));
    };
    CHECK(in_child(nullptr, set_id_node) == 0);
    CHECK(in_child(&filter, set_id_node) == EPERM);
    auto open2 = [&] {
        struct {
            std::uint64_t flags, mode, resolve;
        } how{O_RDONLY | O_CLOEXEC, 0, 0};
        return closing(::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how));
    };
    CHECK(in_child(nullptr, open2) == 0);
    CHECK(in_child(&filter, open2) == ENOSYS);
    ::close(holder);
}

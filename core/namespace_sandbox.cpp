#include "core/namespace_sandbox.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>

namespace arb {

namespace fs = std::filesystem;

extern const unsigned char kNamespaceInit[];  // namespace_init.c's binary (namespace_init_blob.cpp)
extern const std::size_t kNamespaceInit_size;

namespace {

// A memfd holding the namespace's init, made once: exec'd from a descriptor, it needs no path
// inside the sandbox's view.
int init_program() {
    static const int fd = [] {
        const int memfd = ::memfd_create("arbiter-init", MFD_CLOEXEC);
        if (memfd < 0) return -1;
        std::size_t written = 0;
        while (written < kNamespaceInit_size) {
            const ssize_t n = ::write(memfd, kNamespaceInit + written, kNamespaceInit_size - written);
            if (n <= 0) {
                ::close(memfd);
                return -1;
            }
            written += static_cast<std::size_t>(n);
        }
        return memfd;
    }();
    return fd;
}

struct ProgramStart {
    const char* path;
    char* const* argv;
    char* const* envp;
    int error;
};

int program_child(void* arg) {
    auto& start = *static_cast<ProgramStart*>(arg);
    ::execve(start.path, start.argv, start.envp);
    start.error = errno;
    ::_exit(127);
}

bool under_tmp(const fs::path& p) {
    const std::string s = p.lexically_normal().string();
    return s == "/tmp" || s.rfind("/tmp/", 0) == 0;
}

int set_tree_attributes(int fd, const char* path, unsigned flags, std::uint64_t set, std::uint64_t clear) {
    mount_attr attr{};
    attr.attr_set = set;
    attr.attr_clr = clear;
    return static_cast<int>(::syscall(SYS_mount_setattr, fd, path, flags, &attr, sizeof attr));
}

int clone_tree(const char* path, bool writable) {
    const int fd = static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE));
    if (fd < 0) return -1;
    const std::uint64_t set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (writable ? 0 : MOUNT_ATTR_RDONLY);
    if (set_tree_attributes(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, set, writable ? MOUNT_ATTR_RDONLY : 0) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int place_tree(int fd, const char* path) {
    return static_cast<int>(::syscall(SYS_move_mount, fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH));
}

// A /dev with the harmless devices only (as bwrap's --dev, without pseudo-terminals).
int make_dev() {
    if (::mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64m") != 0) return errno;
    struct Device {
        const char* path;
        unsigned major, minor;
    };
    static const Device devices[] = {{"/dev/null", 1, 3},    {"/dev/zero", 1, 5},    {"/dev/full", 1, 7},
                                     {"/dev/random", 1, 8},  {"/dev/urandom", 1, 9}, {"/dev/tty", 5, 0}};
    for (const Device& d : devices) {
        if (::mknod(d.path, S_IFCHR | 0666, makedev(d.major, d.minor)) != 0) return errno;
        if (::chmod(d.path, 0666) != 0) return errno;  // the umask applied to mknod
    }
    static const char* const links[][2] = {{"/proc/self/fd", "/dev/fd"},
                                           {"/proc/self/fd/0", "/dev/stdin"},
                                           {"/proc/self/fd/1", "/dev/stdout"},
                                           {"/proc/self/fd/2", "/dev/stderr"}};
    for (const auto& link : links)
        if (::symlink(link[0], link[1]) != 0) return errno;
    if (::mkdir("/dev/shm", 01777) != 0 || ::chmod("/dev/shm", 01777) != 0) return errno;
    return 0;
}

}  // namespace

ExposedPaths exposed_paths(const fs::path& executable, const std::vector<std::string>& argv, const fs::path& dir) {
    ExposedPaths paths;
    paths.cwd = dir.empty() ? fs::current_path() : fs::absolute(dir).lexically_normal();
    auto expose_path = [&](const fs::path& p) {
        std::error_code ec;
        if (!p.is_absolute() || !under_tmp(p) || !fs::exists(p, ec)) return;
        // As written, "..", "." and all: the program is exec'd by that path, which passes
        // through every folder it names, so each must exist in the view (made empty if need be).
        const fs::path folder = fs::is_directory(p, ec) ? p : p.parent_path();
        for (const auto& done : paths.read_only)
            if (done == folder) return;
        paths.read_only.push_back(folder);
    };
    // A symbolic link is followed inside the sandbox, so its target must be there as well.
    auto expose = [&](const fs::path& p) {
        expose_path(p);
        std::error_code ec;
        const fs::path real = fs::canonical(p, ec);
        if (!ec && real != p.lexically_normal()) expose_path(real);
    };
    expose(executable);
    for (std::size_t i = 1; i < argv.size(); ++i) expose(fs::absolute(paths.cwd / argv[i]));
    if (dir.empty()) expose(paths.cwd);
    else paths.writable = paths.cwd;
    return paths;
}

NamespaceView namespace_view(const ExposedPaths& paths) {
    NamespaceView view;
    view.cwd = paths.cwd.string();
    view.writable = paths.writable.string();
    for (const auto& p : paths.read_only) view.read_only.push_back(p.string());
    // Mount points under the new, empty /tmp: every folder from /tmp down, parents first.
    auto add_dirs = [&](const fs::path& p) {
        if (!under_tmp(p)) return;
        fs::path so_far = "/";
        for (const auto& part : p) {
            so_far /= part;
            if (so_far.string().size() <= 4) continue;  // "/" and "/tmp" exist
            const std::string s = so_far.string();
            bool known = false;
            for (const auto& d : view.dirs_to_make) known = known || d == s;
            if (!known) view.dirs_to_make.push_back(s);
        }
    };
    for (const auto& p : paths.read_only) add_dirs(p);
    if (!paths.writable.empty()) add_dirs(paths.writable);
    view.tree_fds.assign(view.read_only.size() + 1, -1);
    view.program_stack.resize(64 * 1024);
    return view;
}

int namespace_clone_flags() { return CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP; }

int enter_namespace_view(NamespaceView& view, int& proc_self_stat) {
    // Nothing mounted here may reach the host's mount namespace.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
    proc_self_stat = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (proc_self_stat < 0) return errno;
    // Copies of what the new /tmp hides, taken before it is mounted; moved into it after.
    const std::size_t shown = view.read_only.size();
    for (std::size_t i = 0; i < shown; ++i)
        if ((view.tree_fds[i] = clone_tree(view.read_only[i].c_str(), false)) < 0) return errno;
    if (!view.writable.empty() && (view.tree_fds[shown] = clone_tree(view.writable.c_str(), true)) < 0) return errno;
    if (set_tree_attributes(AT_FDCWD, "/", AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0) != 0)
        return errno;
    if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) return errno;
    for (const auto& dir : view.dirs_to_make)
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return errno;
    for (std::size_t i = 0; i < shown; ++i)
        if (place_tree(view.tree_fds[i], view.read_only[i].c_str()) != 0) return errno;
    if (!view.writable.empty() && place_tree(view.tree_fds[shown], view.writable.c_str()) != 0) return errno;
    for (int& fd : view.tree_fds) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    if (const int error = make_dev(); error != 0) return error;
    if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) return errno;
    if (::chdir(view.cwd.c_str()) != 0) return errno;
    return 0;
}

int drop_bounding_capabilities() {
    for (int cap = 0; cap < 64; ++cap) {
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0) continue;
        if (errno == EINVAL) break;  // past the last capability this kernel knows
        return errno;
    }
    return 0;
}

int drop_capabilities() {
    if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return errno;
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (::syscall(SYS_capset, &header, data) != 0) return errno;
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
    return 0;
}

int become_init(NamespaceView& view, const char* path, char* const* argv, char* const* envp, bool& program_failed) {
    program_failed = false;
    const int init = init_program();
    if (init < 0) return EBADF;
    ProgramStart start{path, argv, envp, 0};
    char* const stack_top = view.program_stack.data() + view.program_stack.size();
    const pid_t program = ::clone(program_child, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
    if (program < 0) return errno;
    if (start.error != 0) {
        ::waitpid(program, nullptr, 0);
        program_failed = true;
        return start.error;
    }
    // The pipes are the program's alone: when it closes its output, the arbiter sees the end.
    ::close(STDIN_FILENO);
    ::close(STDOUT_FILENO);
    ::close(STDERR_FILENO);
    char* const init_argv[] = {const_cast<char*>("arbiter-init"), nullptr};
    char* const no_environment[] = {nullptr};
    ::syscall(SYS_execveat, init, "", init_argv, no_environment, AT_EMPTY_PATH);
    const int error = errno;
    ::kill(program, SIGKILL);
    return error;
}

pid_t host_parent_pid(int proc_self_stat) {
    char text[512];
    const ssize_t n = ::pread(proc_self_stat, text, sizeof text - 1, 0);
    if (n <= 0) return -1;
    text[n] = '\0';
    // "pid (comm) S ppid ...": the fields follow the last ')', as comm may contain anything.
    const char* p = nullptr;
    for (const char* c = text; *c != '\0'; ++c)
        if (*c == ')') p = c;
    if (p == nullptr || p[1] != ' ' || p[2] == '\0' || p[3] != ' ') return -1;
    pid_t ppid = 0;
    for (p += 4; *p >= '0' && *p <= '9'; ++p) ppid = ppid * 10 + (*p - '0');
    return ppid;
}

pid_t clone_vfork(int flags, int (*child)(void*), void* arg) {
    // The child runs on this stack until it execs or exits, while this thread waits (vfork).
    constexpr std::size_t kStackBytes = 256 * 1024;
    const auto stack = std::make_unique<char[]>(kStackBytes);
    return ::clone(child, stack.get() + kStackBytes, flags | CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
}

namespace {

struct ProbeChild {
    NamespaceView view;
    int netns = -1;
    int error = 0;
};

int probe_child(void* arg) {
    auto& probe = *static_cast<ProbeChild*>(arg);
    int stat_fd = -1;
    int error = ::setns(probe.netns, CLONE_NEWNET) == 0 ? 0 : errno;
    if (error == 0) error = enter_namespace_view(probe.view, stat_fd);
    if (error == 0) error = drop_bounding_capabilities();
    if (error == 0) error = drop_capabilities();
    if (error == 0) {
        char* const argv[] = {const_cast<char*>("true"), nullptr};
        char* const envp[] = {nullptr};
        bool program_failed = false;
        error = become_init(probe.view, "/bin/true", argv, envp, program_failed);
    }
    probe.error = error;
    ::_exit(1);
}

std::string probe_namespaces() {
    if (::geteuid() != 0) return "the arbiter does not run as root";
    if (init_program() < 0) return std::string("cannot make the sandbox's init: ") + std::strerror(errno);
    const LentNetworkNamespace netns = LentNetworkNamespace::borrow();
    if (!netns.valid()) return std::string("cannot make a network namespace: ") + std::strerror(errno);
    ProbeChild probe;
    probe.view = namespace_view(ExposedPaths{"/", {}, {}});
    probe.netns = netns.get();
    const pid_t pid = clone_vfork(namespace_clone_flags(), probe_child, &probe);
    if (pid < 0) return std::string("cannot make namespaces: ") + std::strerror(errno);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    return std::string("cannot set up the sandbox's view: ") + std::strerror(probe.error);
}

std::mutex lent_mutex;
// Made earlier, held by no seat. Never destroyed: a seat may give one back during exit.
auto* const lendable = new std::vector<UniqueFd>;

UniqueFd make_network_namespace() {
    UniqueFd netns;
    int error = 0;
    // On a thread of its own: unshare changes the namespace of the calling thread only.
    std::thread([&] {
        if (::unshare(CLONE_NEWNET) != 0) error = errno;
        else netns.reset(::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC));
    }).join();
    errno = error;
    return netns;
}

}  // namespace

std::string namespaces_failure() {
    static const std::string failure = probe_namespaces();
    return failure;
}

LentNetworkNamespace LentNetworkNamespace::borrow() {
    {
        const std::lock_guard lock(lent_mutex);
        if (!lendable->empty()) {
            UniqueFd fd = std::move(lendable->back());
            lendable->pop_back();
            return LentNetworkNamespace(std::move(fd));
        }
    }
    return LentNetworkNamespace(make_network_namespace());
}

void LentNetworkNamespace::give_back() {
    if (!fd_.valid()) return;
    const std::lock_guard lock(lent_mutex);
    lendable->push_back(std::move(fd_));
}

}  // namespace arb

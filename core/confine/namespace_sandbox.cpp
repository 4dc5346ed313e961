#include "core/confine/namespace_sandbox.hpp"

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
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>

#include "core/confine/folder_overlay.hpp"
#include "core/confine/user_namespace.hpp"
#include "core/confine/view_skeleton.hpp"

namespace arb {

namespace fs = std::filesystem;

extern const unsigned char kNamespaceInit[];  // namespace_init.c's binary (namespace_init_blob.cpp)
extern const std::size_t kNamespaceInit_size;

namespace {

// A memfd holding the namespace's init, made once: exec'd from a descriptor, it needs no path
// inside the sandbox's view.
int init_program() {
    static const int fd = [] {
        // Above descriptor 3, where it writes its report (passed on to bwrap at its number).
        const int created = ::memfd_create("arbiter-init", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (created < 0) return -1;
        const int memfd = ::fcntl(created, F_DUPFD_CLOEXEC, 10);
        ::close(created);
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
        // Sealed: no process that gets hold of it (a bwrap seat's init has it) can change the init
        // every later bot runs.
        if (::fcntl(memfd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
            ::close(memfd);
            return -1;
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

int set_tree_attributes(int fd, const char* path, unsigned flags, std::uint64_t set, std::uint64_t clear) {
    mount_attr attr{};
    attr.attr_set = set;
    attr.attr_clr = clear;
    return static_cast<int>(::syscall(SYS_mount_setattr, fd, path, flags, &attr, sizeof attr));
}

int clone_tree(const ViewMount& m) {
    const unsigned recursive = m.is_file || m.writable ? 0 : AT_RECURSIVE;
    const int fd = m.source_fd >= 0
                       ? static_cast<int>(::syscall(SYS_open_tree, m.source_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | recursive))
                       : static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, m.source.c_str(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | recursive));
    if (fd < 0) return -1;
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_NOSUID | (m.device ? 0 : MOUNT_ATTR_NODEV) | (m.writable ? 0 : MOUNT_ATTR_RDONLY);
    attr.attr_clr = m.writable ? MOUNT_ATTR_RDONLY : 0;
    if (m.writable && m.idmap_userns >= 0) {
        attr.attr_set |= MOUNT_ATTR_IDMAP;
        attr.userns_fd = static_cast<std::uint64_t>(m.idmap_userns);
    }
    if (::syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | recursive, &attr, sizeof attr) != 0) {
        const int error = errno;
        ::close(fd);
        errno = error;
        return -1;
    }
    return fd;
}

int place_tree(int fd, const char* path) {
    return static_cast<int>(::syscall(SYS_move_mount, fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH));
}

// The paths container runtimes hide or freeze in /proc (empty files and folders, read-only).
int cover_proc(const NamespaceView& view) {
    for (const auto& file : view.proc_masked_files)
        if (::mount(view.dev_null.c_str(), file.c_str(), nullptr, MS_BIND, nullptr) != 0) return errno;
    for (const auto& dir : view.proc_masked_dirs)
        if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") != 0)
            return errno;
    for (const auto& path : view.proc_read_only) {
        if (::mount(path.c_str(), path.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return errno;
        if (::mount(nullptr, path.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                    nullptr) != 0)
            return errno;
    }
    return 0;
}

}  // namespace

int namespace_init_program() { return init_program(); }

namespace {

struct EmptyNamespaceChild {
    int namespace_fd = -1;
    int error = 0;
    bool visible_proc = false;
};

// In a new mount namespace: an empty tmpfs as its root, one folder, read-only. The namespace's
// descriptor is opened in the arbiter's own table (CLONE_FILES).
int empty_namespace_child(void* arg) {
    auto& child = *static_cast<EmptyNamespaceChild*>(arg);
    child.namespace_fd = ::open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (child.namespace_fd < 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=4k,nr_inodes=8") != 0 ||
        ::mkdir("/tmp/view", 0755) != 0) {
        child.error = errno;
        return 0;
    }
    // Outside a host root's namespaces the kernel mounts a bot's /proc only where a whole proc is
    // already seen: the host's, bound here above every bot's root, where no bot reaches it.
    if (child.visible_proc && (::mkdir("/tmp/proc", 0555) != 0 ||
                               ::mount("/proc", "/tmp/proc", nullptr, MS_BIND | MS_REC, nullptr) != 0)) {
        child.error = errno;
        return 0;
    }
    if (::chdir("/tmp") != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0 ||
        ::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0 ||
        set_tree_attributes(AT_FDCWD, "/", 0, MOUNT_ATTR_RDONLY, 0) != 0)
        child.error = errno;
    return 0;  // clone's exit: no exit handlers, and no no-return call a sanitizer would check on this stack
}

}  // namespace

int empty_mount_namespace() {
    static const int fd = [] {
        EmptyNamespaceChild child;
        child.visible_proc = !host_root();
        const pid_t pid = clone_vfork(CLONE_NEWNS | CLONE_FILES, empty_namespace_child, &child);
        if (pid < 0) return -1;
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        if (child.error == 0) return child.namespace_fd;
        if (child.namespace_fd >= 0) ::close(child.namespace_fd);
        errno = child.error;
        return -1;
    }();
    return fd;
}

namespace {

// A user namespace of the seat's own, in which it is kSeatUidInside (the arbiter's root mapped),
// not root: before the chroot (the kernel makes none for a process in a chroot), its maps
// written through the view's /proc, prepared by the parent.
int enter_seat_user_namespace(const NamespaceView& view) {
    if (::unshare(CLONE_NEWUSER) != 0) return errno;
    constexpr std::string_view kMap = "1000 0 1\n";
    static_assert(kSeatUidInside == 1000);
    if (!write_id_map(view.uid_map.c_str(), kMap) || !write_id_map(view.setgroups.c_str(), "deny") ||
        !write_id_map(view.gid_map.c_str(), kMap))
        return errno;
    return 0;
}

#define STEP(what) (view.failed_step = (what))

// A folder, or the one already there (the skeleton's).
int make_dir(const std::string& dir, mode_t mode) { return ::mkdir(dir.c_str(), mode) != 0 && errno != EEXIST ? errno : 0; }

// The root: the shared skeleton's clone, or a tmpfs of its own with the folders, files, links and
// /dev made in it.
int place_root(NamespaceView& view) {
    if (view.skeleton_tree < 0)
        return ::mount("tmpfs", view.root.c_str(), "tmpfs", MS_NOSUID, view.root_options.c_str()) != 0 ? errno : 0;
    const int placed = place_tree(view.skeleton_tree, view.root.c_str()) != 0 ? errno : 0;
    ::close(view.skeleton_tree);
    view.skeleton_tree = -1;
    return placed;
}

int build_root(NamespaceView& view) {
    const bool own_root = view.skeleton < 0;
    if (const int error = (STEP("the new root"), place_root(view)); error != 0) return error;
    // The private /tmp first: trees shown under /tmp are placed in it, not under it.
    if (const int error = (STEP("/tmp"), make_dir(view.tmp, 0755)); error != 0) return error;
    if (view.scratch >= 0) {
        // The scratch waits on /proc's mount point, which the real /proc covers below: the bot
        // reaches it only as its /tmp and through its folder's overlay.
        if (STEP("the scratch"), make_dir(view.proc, 0755) != 0 || place_tree(view.scratch, view.proc.c_str()) != 0)
            return errno;
        const std::string scratch_tmp = view.proc + "/" + kScratchTmp;
        if (::mount(scratch_tmp.c_str(), view.tmp.c_str(), nullptr, MS_BIND, nullptr) != 0) return errno;
    } else if (::mount("tmpfs", view.tmp.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, view.tmp_options.c_str()) != 0) {
        return errno;
    }
    for (const auto& dir : view.dirs_to_make)
        if (STEP(dir.c_str()), ::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return errno;
    for (const auto& file : view.files_to_make) {
        const int fd = (STEP(file.c_str()), ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
        if (fd < 0) return errno;
        ::close(fd);
    }
    for (const auto& [target, link] : view.symlinks)
        if (STEP(link.c_str()), ::symlink(target.c_str(), link.c_str()) != 0) return errno;
    if (own_root)
        if (const int error = (STEP("/dev"), make_dev_at(AT_FDCWD, view.dev.c_str(), view.device_nodes)); error != 0)
            return error;
    for (ViewMount& m : view.mounts) {
        if (STEP(m.target.c_str()), place_tree(m.tree_fd, m.target.c_str()) != 0) return errno;
        ::close(m.tree_fd);
        m.tree_fd = -1;
        // The writable folder: an overlay on itself, its changes kept on the scratch. Never the
        // live folder instead: a bot's writes would reach it at once and unbounded.
        if (m.writable && view.scratch >= 0 &&
            (STEP("its folder's overlay; --disk-mib 0 writes the folder directly, unbounded"),
             ::mount("overlay", m.target.c_str(), "overlay", MS_NOSUID | MS_NODEV, view.overlay_options.c_str()) != 0))
            return errno;
    }
    if (STEP("/dev/shm"), ::mount("tmpfs", view.dev_shm.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, view.shm_options.c_str()) != 0)
        return errno;
    if (STEP("/proc"), ::mount("proc", view.proc.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
        return errno;
    if (const int error = (STEP("/proc covers"), cover_proc(view)); error != 0) return error;
    // The root itself read-only: only its own folder, /tmp and /dev/shm take writes.
    if (STEP("the new root"), set_tree_attributes(AT_FDCWD, view.root.c_str(), 0, MOUNT_ATTR_RDONLY, 0) != 0) return errno;
    return 0;
}

}  // namespace

int enter_namespace_view(NamespaceView& view, int& proc_self_stat) {
    // Still in the host's mount namespace (nothing is mounted here): the host's /proc and the
    // trees the view shows, cloned as detached copies.
    proc_self_stat = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (proc_self_stat < 0) return errno;
    for (ViewMount& m : view.mounts)
        if (STEP(m.source.c_str()), (m.tree_fd = clone_tree(m)) < 0) return errno;
    if (view.skeleton >= 0 &&
        (STEP("the root's skeleton"), view.skeleton_tree = static_cast<int>(::syscall(
             SYS_open_tree, view.skeleton, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH))) < 0)
        return errno;
    // A private copy of the empty namespace: none of the host's mounts is ever in it, so none has
    // to be unmounted (each unmount waits for an RCU grace period: a third of a millisecond of
    // every start, more under load, when the root was the host's copy, pivoted away from).
    if (STEP("the empty mount namespace"), ::setns(view.empty_namespace, CLONE_NEWNS) != 0) return errno;
    if (::unshare(CLONE_NEWNS) != 0) return errno;
    if (const int error = build_root(view); error != 0) return error;
    if (view.own_user_namespace)
        if (const int error = (STEP("its own user namespace"), enter_seat_user_namespace(view)); error != 0) return error;
    // Its root becomes the bot's: above it is only the empty read-only tmpfs, and a bot has no
    // capability to chroot again.
    if (STEP("chroot"), ::chdir(view.root.c_str()) != 0 || ::chroot(".") != 0) return errno;
    if (STEP(view.cwd.c_str()), ::chdir(view.cwd.c_str()) != 0) return errno;
    view.failed_step = nullptr;
    return 0;
}

#undef STEP

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

namespace {

// The init's status report at descriptor 3 (namespace_init.c), kept across its exec; the init
// program's own descriptor moves out of the way first.
int place_status_report(int report, int& init) {
    constexpr int kStatusReport = 3;
    if (report < 0) return 0;
    if (init == kStatusReport && (init = ::fcntl(init, F_DUPFD_CLOEXEC, kStatusReport + 1)) < 0) return errno;
    if (report == kStatusReport) return ::fcntl(report, F_SETFD, 0) == 0 ? 0 : errno;
    return ::dup2(report, kStatusReport) == kStatusReport ? 0 : errno;  // dup2 leaves it open across exec
}

}  // namespace

int become_init(NamespaceView& view, const char* path, char* const* argv, char* const* envp, bool& program_failed) {
    program_failed = false;
    int init = init_program();
    if (init < 0) return EBADF;
    ProgramStart start{path, argv, envp, 0};
    char* const stack_top = view.program_stack.get() + kProgramStackBytes;
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
    if (const int error = place_status_report(view.status_report, init); error != 0) {
        ::kill(program, SIGKILL);
        return error;
    }
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
    // Not zeroed: the child writes only the little of it it uses, and a quarter megabyte filled
    // at every start is a cost of its own.
    const auto stack = std::make_unique_for_overwrite<char[]>(kStackBytes);
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
    if (const std::string why = user_namespace_failure(); !why.empty()) return why;
    if (init_program() < 0) return std::string("cannot make the sandbox's init: ") + std::strerror(errno);
    if (empty_mount_namespace() < 0) return std::string("cannot make an empty mount namespace: ") + std::strerror(errno);
    const LentNetworkNamespace netns = LentNetworkNamespace::borrow();
    if (!netns.valid()) return std::string("cannot make a network namespace: ") + std::strerror(errno);
    ProbeChild probe;
    probe.view = namespace_view(ExposedPaths{"/", {}, {}, {}, {}}, ViewOptions{});
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

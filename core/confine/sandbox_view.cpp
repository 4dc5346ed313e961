#include "core/confine/sandbox_view.hpp"

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/syscall.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <tuple>

#include "core/bot_spec.hpp"
#include "core/confine/detached_tmpfs.hpp"
#include "core/unique_fd.hpp"
#include "core/confine/user_namespace.hpp"

namespace arb {
namespace fs = std::filesystem;

const std::vector<std::string>& etc_allowlist() {
    static const std::vector<std::string> entries = [] {
        std::vector<std::string> list = {
            "alternatives", "bash.bashrc", "debian_version", "fonts",     "gai.conf",     "group",
            "host.conf",    "hostname",    "hosts",          "inputrc",   "ld.so.cache",  "ld.so.conf",
            "ld.so.conf.d", "locale.alias", "locale.conf",   "localtime", "magic",        "magic.mime",
            "mime.types",   "networks",    "nsswitch.conf",  "os-release", "passwd",      "perl",
            "profile",      "protocols",   "resolv.conf",    "services",  "shells",       "ssl/certs",
            "terminfo",     "timezone"};
        // Interpreters' and runtimes' own folders (python3.11/sitecustomize.py, java-17-openjdk/jvm.cfg).
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator("/etc", ec)) {
            const std::string name = entry.path().filename().string();
            for (const char* prefix : {"python", "java-", "php", "ruby", "mono"})
                if (name.rfind(prefix, 0) == 0) list.push_back(name);
        }
        std::sort(list.begin(), list.end());
        std::erase_if(list, [](const std::string& name) {
            std::error_code e;
            return !fs::exists(fs::path("/etc") / name, e) && !fs::is_symlink(fs::path("/etc") / name, e);
        });
        return list;
    }();
    return entries;
}

namespace {

// A copy of the allowlisted /etc in a tmpfs of its own that is never attached anywhere: bound whole
// into every view (one mount per bot instead of one per entry), it names no host path and no
// arbiter in a bot's mountinfo, and it goes with the arbiter (nothing to remove, nothing left by
// one that was killed). -1 where the arbiter can make no mount (neither root nor in a user
// namespace of its own).
int make_etc_copy() {
    if (!host_root() && !in_own_user_namespace()) return -1;
    UniqueFd copy = detached_tmpfs({"64m", "", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV});
    if (!copy.valid()) return -1;
    // Readable by every seat user, whatever the umask of the arbiter (077) or its user.
    struct ReadableByAll {
        mode_t arbiter = ::umask(022);
        ~ReadableByAll() { ::umask(arbiter); }
    } readable;
    const fs::path root = "/proc/self/fd/" + std::to_string(copy.get());
    std::error_code ec;
    for (const auto& name : etc_allowlist()) {
        const fs::path from = fs::path("/etc") / name, to = root / name;
        if (to.parent_path() != root) fs::create_directories(to.parent_path(), ec);
        fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
        if (ec) return -1;
    }
    return copy.release();  // kept for the run
}

BaseView probe_base_view() {
    BaseView view;
    view.read_only_dirs.push_back("/usr");
    // Merged /usr: /bin, /lib, ... are links into it; elsewhere they are folders of their own.
    for (const char* name : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        std::error_code ec;
        if (fs::is_symlink(name, ec)) view.symlinks.emplace_back(fs::read_symlink(name, ec).string(), name);
        else if (fs::is_directory(name, ec)) view.read_only_dirs.push_back(name);
    }
    view.etc_entries = etc_allowlist();
    return view;
}

}  // namespace

const BaseView& base_view(bool make_etc_copy_now) {
    static BaseView view = probe_base_view();
    static std::once_flag copied;
    if (make_etc_copy_now) std::call_once(copied, [] { view.etc_copy = make_etc_copy(); });
    return view;
}

namespace {

int wait_for_pipe_end(void* arg) {
    const int* fds = static_cast<int*>(arg);
    ::close(fds[1]);  // its copy of the write end would keep the pipe open
    char byte = 0;
    while (::read(fds[0], &byte, 1) < 0 && errno == EINTR) {
    }
    ::_exit(0);
}

int make_idmap_user_namespace(uid_t seat, uid_t owner_uid, gid_t owner_gid) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
    UniqueFd read_end(fds[0]), write_end(fds[1]);
    constexpr std::size_t kStack = 64 * 1024;
    const auto stack = std::make_unique<char[]>(kStack);
    int child_fds[2] = {read_end.get(), write_end.get()};
    // A process in a new user namespace waits until its maps are written and the namespace is held.
    const pid_t pid = ::clone(wait_for_pipe_end, stack.get() + kStack, CLONE_NEWUSER | SIGCHLD, child_fds);
    if (pid < 0) return -1;
    const std::string proc = "/proc/" + std::to_string(pid);
    int result = -1;
    if (write_id_map((proc + "/uid_map").c_str(), std::to_string(owner_uid) + " " + std::to_string(seat) + " 1\n") &&
        write_id_map((proc + "/gid_map").c_str(), std::to_string(owner_gid) + " " + std::to_string(seat) + " 1\n"))
        result = ::open((proc + "/ns/user").c_str(), O_RDONLY | O_CLOEXEC);
    const int error = errno;
    write_end.reset();
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    errno = error;
    return result;
}

}  // namespace

int idmap_user_namespace(uid_t seat, uid_t owner_uid, gid_t owner_gid) {
    static std::mutex mutex;
    static auto* const made = new std::map<std::tuple<uid_t, uid_t, gid_t>, int>;  // kept for the run
    const std::lock_guard lock(mutex);
    const auto key = std::make_tuple(seat, owner_uid, owner_gid);
    if (const auto found = made->find(key); found != made->end()) return found->second;
    const int fd = make_idmap_user_namespace(seat, owner_uid, owner_gid);
    if (fd >= 0) made->emplace(key, fd);
    return fd;
}

bool reachable_by_others(const fs::path& path) {
    std::error_code ec;
    const fs::path full = fs::absolute(path, ec).lexically_normal();
    fs::path so_far = "/";
    for (const auto& part : full.relative_path()) {
        struct stat st {};
        if (::stat(so_far.c_str(), &st) != 0 || (st.st_mode & S_IXOTH) == 0) return false;
        so_far /= part;
    }
    struct stat st {};
    return ::stat(full.c_str(), &st) == 0 && (st.st_mode & S_IROTH) != 0;
}

}  // namespace arb

#pragma once
// The arbiter's own confinement of a bot (`--sandbox namespaces`; root, or a non-root arbiter in a
// user namespace of its own, core/confine/user_namespace.hpp): the same view as
// the bubblewrap sandbox, built in the bot's child between clone and exec instead of by a bwrap
// process per bot. The child is cloned into new PID, mount, IPC, UTS and cgroup namespaces, so
// the bot's program runs under the namespace's init (its exit, or its kill, ends every process
// in it), joins a network namespace the arbiter holds, builds its root from nothing (a tmpfs
// holding the base view, its own folder idmapped and writable, its own /proc, /dev and bounded
// /tmp; sandbox_view.hpp) in a copy of an empty mount namespace, enters it, takes its seat user
// and drops every capability. What costs a bwrap start several milliseconds (its exec, its own init process, a
// fresh network namespace) is not paid per bot. docs/core.md "Confinement".
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/confine/sandbox_view.hpp"
#include "core/unique_fd.hpp"

namespace arb {

// One tree of the host shown in the view, at the same path.
struct ViewMount {
    std::string source;    // host path, cloned before the new root covers anything
    int source_fd = -1;    // else a mount's descriptor (the /etc copy), cloned whole
    std::string target;    // where it goes in the staged root (root + path)
    bool writable = false;
    bool is_file = false;  // its mount point is an empty file
    bool device = false;   // a device node of the host's /dev (an unprivileged arbiter cannot make one)
    int idmap_userns = -1;  // writable folder: shown as the seat user's own (idmapped mount)
    int tree_fd = -1;       // child scratch
};

// Everything the child needs, prepared by the parent: the child allocates nothing. Paths are
// full paths in the staged root (`root` + the path the bot sees).
constexpr std::size_t kProgramStackBytes = 64 * 1024;

struct NamespaceView {
    std::string root;                       // where the new root is assembled, then entered (chroot)
    std::string root_options;               // tmpfs options of the new root
    std::vector<ViewMount> mounts;          // parents first
    // The root's fixed part, shared read-only with every bot whose root has the same folders,
    // files and links (view_skeleton.hpp); -1: made in a tmpfs of the bot's own. With one, the
    // three lists below keep only what lies under /tmp.
    int skeleton = -1;
    int skeleton_tree = -1;                 // child scratch: its clone
    std::vector<std::string> dirs_to_make;  // parents first
    std::vector<std::string> files_to_make;
    std::vector<std::pair<std::string, std::string>> symlinks;  // {target, link}
    std::string dev, dev_null, dev_shm, tmp, proc;
    std::string tmp_options, shm_options;   // "mode=1777,size=...": private, bounded
    std::vector<std::string> proc_masked_files, proc_masked_dirs, proc_read_only;  // container defaults
    std::string cwd;                        // inside the new root
    std::unique_ptr<char[]> program_stack;  // kProgramStackBytes: the program's child runs on it until it execs
    int status_report = -1;                 // the init writes the program's wait status here
    int empty_namespace = -1;               // empty_mount_namespace()
    // The seat's scratch (folder_overlay.hpp), placed where /proc then covers it: /tmp is its
    // folder, and the writable folder an overlay with its upper layer there. -1: /tmp is a
    // tmpfs of its own and the folder a plain writable bind.
    int scratch = -1;
    std::string overlay_options;            // the folder's overlay (folder_overlay_options)
    bool device_nodes = true;               // /dev's nodes made (root), else bound from the host's
    // The child enters a user namespace of its own below the arbiter's, as kSeatUidInside
    // (an unprivileged arbiter's seats: RLIMIT_NPROC then counts the seat's processes alone).
    bool own_user_namespace = false;
    std::string uid_map, setgroups, gid_map;  // its /proc/self files in the view, for its maps
    const char* failed_step = nullptr;      // set by the child: what it was doing when it failed
};

struct ViewOptions {
    std::int64_t disk_mib = 256;  // size of the private /tmp and of /dev/shm
    int idmap_userns = -1;        // for the writable folder (idmap_user_namespace); -1: plain bind
    int scratch = -1;             // make_folder_scratch: the folder and /tmp bounded together
    bool own_user_namespace = false;  // NamespaceView::own_user_namespace
};

NamespaceView namespace_view(const ExposedPaths& paths, const ViewOptions& options);

// A close-on-exec memfd of namespace_init.c's program (made once; -1 if it could not be). Under
// bwrap it runs as `init PROGRAM ARGS...` (--as-pid-1) and reports like this sandbox's init.
int namespace_init_program();

// clone(2) flags of a confined bot (the network namespace is joined, not made).
int namespace_clone_flags();

// A mount namespace holding only an empty read-only tmpfs with one folder, /view (made once;
// -1 and errno if it cannot be). Each confined bot builds its view in a private copy of it.
int empty_mount_namespace();

// In the cloned child, as root, before the user switch: clones the trees the view shows, enters
// a private copy of the empty mount namespace, builds the view in a new tmpfs on its folder and
// makes that the root (chroot: the host's mounts are never in the namespace). Async-signal-safe;
// 0 or an errno. `proc_self_stat` receives a descriptor of the host's /proc/self/stat, opened
// before (the parent-death check reads the real parent from it later: getppid() is 0 in a new
// PID namespace).
int enter_namespace_view(NamespaceView& view, int& proc_self_stat);

// Empties the bounding set (an exec as uid 0 then gains nothing); before the user switch.
int drop_bounding_capabilities();
// Clears the remaining capabilities and sets no_new_privs; after the user switch.
int drop_capabilities();



// In the confined child, last (stdio, limits, user all set): starts the program as process 2
// of the namespace (a child sharing this memory until it execs) and execs the namespace's init
// (namespace_init.c) in its own place. Returns only on failure, with the errno; `program_failed`
// says whether it was the program's exec (its reason, e.g. ENOENT, is the user's).
int become_init(NamespaceView& view, const char* path, char* const* argv, char* const* envp, bool& program_failed);

// The parent pid as seen by the host, from a /proc/self/stat descriptor (-1 if unreadable).
pid_t host_parent_pid(int proc_self_stat);

// clone(2) with CLONE_VM | CLONE_VFORK | `flags`: `child` runs on a stack of its own until it
// execs or exits, while the calling thread waits. The child's pid, or -1 (errno set).
pid_t clone_vfork(int flags, int (*child)(void*), void* arg);

// Whether this process can confine bots itself; "" when it can, else why not (probed once).
std::string namespaces_failure();

// How many processes below the arbiter's child the bot's program runs: the namespace's init
// starts it.
constexpr int kNamespaceProgramDepth = 1;

// An empty network namespace (only a loopback, down) lent to one pipe seat: making one costs
// about 0.5 ms and its removal more, so they are kept and lent again once the seat's processes
// are gone (give_back). Two seats alive at once never hold the same one: one not given back
// (a process of the seat may live on) is dropped, never lent again.
class LentNetworkNamespace {
public:
    LentNetworkNamespace() = default;
    static LentNetworkNamespace borrow();  // invalid when none can be made
    LentNetworkNamespace(LentNetworkNamespace&& other) noexcept = default;
    LentNetworkNamespace& operator=(LentNetworkNamespace&& other) noexcept = default;
    LentNetworkNamespace(const LentNetworkNamespace&) = delete;
    LentNetworkNamespace& operator=(const LentNetworkNamespace&) = delete;
    ~LentNetworkNamespace() = default;

    int get() const { return fd_.get(); }
    bool valid() const { return fd_.valid(); }
    void give_back();  // every process that was in it is gone

private:
    explicit LentNetworkNamespace(UniqueFd fd) : fd_(std::move(fd)) {}
    UniqueFd fd_;
};

}  // namespace arb

// What a confined bot sees, as the mounts its namespaces' init makes (namespace_view): the base
// view, the paths shown to it, its folder, and the folders and /proc covers they need.
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "core/confine/folder_overlay.hpp"
#include "core/confine/namespace_sandbox.hpp"
#include "core/confine/user_namespace.hpp"
#include "core/confine/view_skeleton.hpp"

namespace arb {

namespace fs = std::filesystem;

namespace {

void add_with_parents(std::vector<std::string>& dirs, const std::string& root, const fs::path& p, bool itself) {
    fs::path so_far = "/";
    const fs::path rel = p.relative_path();
    std::size_t parts = static_cast<std::size_t>(std::distance(rel.begin(), rel.end()));
    std::size_t i = 0;
    for (const auto& part : rel) {
        so_far /= part;
        if (++i == parts && !itself) break;
        dirs.push_back(root + so_far.string());
    }
}

// /proc entries as the OCI runtime defaults treat them, those present on this kernel (looked up once).
void add_proc_covers(NamespaceView& view) {
    struct Present {
        std::vector<std::string> files, dirs, read_only;
    };
    static const Present present = [] {
        Present p;
        std::error_code ec;
        for (const char* name : {"kcore", "keys", "key-users", "latency_stats", "timer_list", "timer_stats", "sched_debug"})
            if (fs::exists(fs::path("/proc") / name, ec)) p.files.emplace_back(name);
        for (const char* name : {"acpi", "asound", "scsi"})
            if (fs::is_directory(fs::path("/proc") / name, ec)) p.dirs.emplace_back(name);
        for (const char* name : {"bus", "fs", "irq", "sys", "sysrq-trigger"})
            if (fs::exists(fs::path("/proc") / name, ec)) p.read_only.emplace_back(name);
        return p;
    }();
    for (const auto& name : present.files) view.proc_masked_files.push_back(view.proc + "/" + name);
    for (const auto& name : present.dirs) view.proc_masked_dirs.push_back(view.proc + "/" + name);
    for (const auto& name : present.read_only) view.proc_read_only.push_back(view.proc + "/" + name);
}

// A view being assembled: its mounts, and the folders and files to make for them under its root.
struct ViewDraft {
    NamespaceView& view;
    std::vector<std::string> dirs;

    // `source` shown at `at`; writable, and idmapped through `idmap` (>= 0), when asked.
    void show(const fs::path& source, const fs::path& at, bool writable = false, int idmap = -1) {
        std::error_code ec;
        const bool is_file = !fs::is_directory(source, ec);
        ViewMount mount;
        mount.source = source.string();
        mount.target = view.root + at.string();
        mount.writable = writable;
        mount.is_file = is_file;
        mount.idmap_userns = idmap;
        view.mounts.push_back(std::move(mount));
        add_with_parents(dirs, view.root, at, !is_file);
        if (is_file) view.files_to_make.push_back(view.root + at.string());
    }

    // What every bot sees: the base view's folders and links, /etc (a copy, or its entries), and
    // the host's harmless devices where the arbiter cannot make device nodes (unprivileged).
    void show_base() {
        const BaseView& base = base_view(true);
        for (const auto& dir : base.read_only_dirs) show(dir, dir);
        for (const auto& [target, link] : base.symlinks) view.symlinks.emplace_back(target, view.root + link);
        if (base.etc_copy >= 0) {
            show("/etc", "/etc");
            view.mounts.back().source_fd = base.etc_copy;
            view.mounts.back().source = "the /etc copy";
        } else {
            for (const auto& entry : base.etc_entries) show(fs::path("/etc") / entry, fs::path("/etc") / entry);
        }
        view.device_nodes = host_root();
        if (view.device_nodes) return;
        for (const char* device : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}) {
            show(device, device);
            view.mounts.back().device = true;
        }
    }

    // The folders the init mounts its own file systems on, and the /proc files it writes.
    void name_fixed_paths() {
        view.dev = view.root + "/dev";
        view.dev_null = view.dev + "/null";
        view.dev_shm = view.dev + "/shm";
        view.tmp = view.root + "/tmp";
        view.proc = view.root + "/proc";
        view.uid_map = view.proc + "/self/uid_map";
        view.setgroups = view.proc + "/self/setgroups";
        view.gid_map = view.proc + "/self/gid_map";
        for (const std::string& d : {view.dev, view.tmp, view.proc}) dirs.push_back(d);
    }

    // Each folder once, none that is a file's mount point; mounts parents first.
    void put_in_order() {
        std::sort(dirs.begin(), dirs.end());
        dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
        std::erase_if(dirs, [&](const std::string& d) {
            return std::find(view.files_to_make.begin(), view.files_to_make.end(), d) != view.files_to_make.end();
        });
        view.dirs_to_make = std::move(dirs);
        std::stable_sort(view.mounts.begin(), view.mounts.end(),
                         [](const ViewMount& a, const ViewMount& b) { return a.target < b.target; });
    }
};

// The root's fixed part from the shared skeleton (view_skeleton.hpp), when one can be had: the
// view keeps only what lies under its /tmp, made in the bot's own /tmp after it is mounted.
void share_skeleton(NamespaceView& view) {
    const std::string root = view.root + "/";
    const std::string own = view.tmp + "/";
    auto relative = [&](const std::string& path) { return path.substr(root.size()); };
    auto in_own_tmp = [&](const std::string& path) { return path.starts_with(own); };
    SkeletonLayout layout;
    layout.dev = relative(view.dev);
    layout.device_nodes = view.device_nodes;
    for (const auto& dir : view.dirs_to_make)
        if (!in_own_tmp(dir)) layout.dirs.push_back(relative(dir));
    for (const auto& file : view.files_to_make)
        if (!in_own_tmp(file)) layout.files.push_back(relative(file));
    for (const auto& [target, link] : view.symlinks)
        if (!in_own_tmp(link)) layout.symlinks.emplace_back(target, relative(link));
    view.skeleton = view_skeleton(layout);
    if (view.skeleton < 0) return;
    std::erase_if(view.dirs_to_make, [&](const std::string& d) { return !in_own_tmp(d); });
    std::erase_if(view.files_to_make, [&](const std::string& f) { return !in_own_tmp(f); });
    std::erase_if(view.symlinks, [&](const auto& l) { return !in_own_tmp(l.second); });
}

}  // namespace

NamespaceView namespace_view(const ExposedPaths& paths, const ViewOptions& options) {
    NamespaceView view;
    // Assembled on the one folder of a copy of the empty mount namespace (enter_namespace_view).
    view.empty_namespace = empty_mount_namespace();
    view.root = "/view";
    view.root_options = "mode=0755,size=1m,nr_inodes=4096";
    view.own_user_namespace = options.own_user_namespace;
    ViewDraft draft{view, {}};
    draft.show_base();
    for (const auto& p : paths.read_only) draft.show(p, p);
    if (!paths.writable.empty()) draft.show(paths.writable, paths.writable, true, options.idmap_userns);
    add_with_parents(draft.dirs, view.root, paths.cwd, true);
    for (const auto& p : paths.passed_through) add_with_parents(draft.dirs, view.root, p, true);
    draft.name_fixed_paths();
    draft.put_in_order();
    const std::string size = "size=" + std::to_string(std::max<std::int64_t>(options.disk_mib, 1)) + "m";
    view.tmp_options = "mode=1777," + size;
    view.shm_options = "mode=1777," + size;
    if (options.scratch >= 0 && !paths.writable.empty()) {
        view.scratch = options.scratch;
        view.overlay_options = folder_overlay_options(view.root + paths.writable.string(), view.proc, !host_root());
    }
    add_proc_covers(view);
    share_skeleton(view);
    view.cwd = paths.cwd.string();
    view.program_stack = std::make_unique_for_overwrite<char[]>(kProgramStackBytes);
    return view;
}

// The mount namespace is the empty one's copy (enter_namespace_view); the cgroup namespace is
// made once the child is in its seat's cgroups (bot_spawn.cpp), so that they are its root.
int namespace_clone_flags() { return CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS; }

}  // namespace arb

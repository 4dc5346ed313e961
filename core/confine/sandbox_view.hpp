#pragma once
// What a confined bot sees of the machine: a root built from nothing, holding read-only the
// folders programs need (/usr and the top-level links into it, an allowlist of /etc), its own
// folder writable, and read-only the folders its command names (its program, the files of its
// arguments, the interpreter of a script, a version manager's tree). Everything else (home
// folders, the arbiter's working folder, other bots' folders, databases, match files, /run, /sys,
// host sockets) does not exist in the view. Both sandboxes build the same view: the arbiter's
// namespaces (namespace_sandbox.hpp) and bubblewrap (sandbox.hpp).
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace arb {

// The folders and files a confined command needs besides the base view, resolved by the arbiter
// before the bot starts (core/untrusted_path.hpp): a name in the bot's own folder is reached
// through the folder, never resolved on the host nor shown a second time, and no link that lies
// in a bot's folder is ever followed.
struct ExposedPaths {
    std::filesystem::path cwd;                      // where the bot starts
    std::filesystem::path writable;                 // its own folder (dir=); empty: none
    std::vector<std::filesystem::path> read_only;   // folders or files, absolute, none inside another
    // Empty folders the view must have for a path as written to resolve ("bin/../bots/bot"
    // passes through bin).
    std::vector<std::filesystem::path> passed_through;
    std::vector<std::string> warnings;  // what was not shown, and why (said once per start)
};

// What one bot's view is built from.
struct ExposureRequest {
    std::string bot_name;
    std::filesystem::path executable;            // as resolve_executable found it
    std::vector<std::string> argv;               // as written, argv[0] first
    std::filesystem::path dir;                   // the bot's folder; empty: none
    std::vector<std::filesystem::path> extra_read_only;  // ro=PATH of its spec
    // Never entered by a path of this bot: the folders of the other bots the arbiter runs.
    std::vector<std::filesystem::path> other_bot_folders;
    // Never shown, nor any folder that holds one: the arbiter's working folder and outputs.
    std::vector<std::filesystem::path> private_paths;
};

// The paths of `request`'s view. A UserError naming the bot when a path it names would show /,
// a folder that holds its own folder or a private path, or another bot's folder.
ExposedPaths exposed_paths(const ExposureRequest& request);

// The part of the view every bot shares.
struct BaseView {
    std::vector<std::string> read_only_dirs;        // bound at the same path (/usr; /lib on unmerged systems)
    std::vector<std::pair<std::string, std::string>> symlinks;  // {target, link}: /bin -> usr/bin, ...
    std::vector<std::string> etc_entries;           // the /etc allowlist present on this machine
    // A copy of the allowlisted /etc in a detached tmpfs (a mount's descriptor), bound whole;
    // -1 = none made (bubblewrap binds each entry).
    int etc_copy = -1;
};
// Probed once per process. The /etc copy is made when `make_etc_copy` is first asked by an
// arbiter that can make mounts (root, or in a user namespace of its own).
const BaseView& base_view(bool make_etc_copy);

// The /etc entries a bot may read: what programs and their libraries read at start-up (the loader,
// name service, locale, time zone, interpreters' site files, alternatives), never shadow,
// gshadow, keys or service credentials.
const std::vector<std::string>& etc_allowlist();

// A user namespace whose only mapping is `owner` (inside) to `seat` (outside), for uid and gid:
// a mount idmapped with it shows files of `owner` as the seat's, and stores the seat's new files
// as `owner`'s. Made once per (seat, owner) and kept; -1 (errno set) when it cannot be made.
int idmap_user_namespace(uid_t seat, uid_t owner_uid, gid_t owner_gid);

// Whether every folder above `path` lets others pass and `path` lets others read: a seat user
// reaches it without an idmapped view (bubblewrap, or no sandbox).
bool reachable_by_others(const std::filesystem::path& path);

}  // namespace arb

#pragma once
// The fixed part of a confined bot's root: the folders, empty files and links its mounts and
// paths need, and /dev. Made once per distinct layout in a detached tmpfs and shared: each bot
// of that layout gets a clone of the mount (one system call instead of some forty folders,
// links and nodes, and no file system of its own to make and tear down), read-only like the rest
// of its root, so nothing a bot does reaches another. What lies under /tmp is the bot's own and
// is still made in its own /tmp.
#include <string>
#include <utility>
#include <vector>

namespace arb {

// Paths relative to the root ("usr", "dev/shm"), parents before children.
struct SkeletonLayout {
    std::vector<std::string> dirs;
    std::vector<std::string> files;
    std::vector<std::pair<std::string, std::string>> symlinks;  // {target, link}
    std::string dev;            // "dev": made as make_dev_at makes it
    bool device_nodes = false;  // the devices as nodes (root); else they are bound on files of `files`
};

// The detached mount (close-on-exec descriptor) holding `layout`, made on first use and kept for
// the life of the process; -1 when it cannot be made (no new mount API, no privilege, or more
// than kMaxViewSkeletons layouts): the caller then builds the root itself.
int view_skeleton(const SkeletonLayout& layout);
constexpr int kMaxViewSkeletons = 64;

// A /dev with the harmless devices only (as bwrap's --dev, without pseudo-terminals) at `dev`
// relative to `dirfd`: null, zero, full, random, urandom and tty as nodes (mode 0666) when
// `device_nodes`, the links fd, stdin, stdout and stderr into /proc/self, and shm (mode 1777).
// Exact modes whatever the umask. 0 or an errno; async-signal-safe.
int make_dev_at(int dirfd, const char* dev, bool device_nodes);

}  // namespace arb

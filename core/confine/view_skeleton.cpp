#include "core/confine/view_skeleton.hpp"

#include <fcntl.h>
#include <linux/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>

#include "core/confine/detached_tmpfs.hpp"

namespace arb {

int make_dev_at(int dirfd, const char* dev, bool device_nodes) {
    struct Device {
        const char* name;
        unsigned major, minor;
    };
    static const Device devices[] = {{"/null", 1, 3},   {"/zero", 1, 5},    {"/full", 1, 7},
                                     {"/random", 1, 8}, {"/urandom", 1, 9}, {"/tty", 5, 0}};
    static const char* const links[][2] = {{"/proc/self/fd", "/fd"},
                                           {"/proc/self/fd/0", "/stdin"},
                                           {"/proc/self/fd/1", "/stdout"},
                                           {"/proc/self/fd/2", "/stderr"}};
    char path[4096];
    auto at = [&](const char* name) {
        std::snprintf(path, sizeof path, "%s%s", dev, name);
        return path;
    };
    // Made, then given their modes: the umask of whoever makes them does not matter.
    for (const Device& d : devices) {
        if (!device_nodes) break;
        if (::mknodat(dirfd, at(d.name), S_IFCHR | 0666, makedev(d.major, d.minor)) != 0 ||
            ::fchmodat(dirfd, path, 0666, 0) != 0)
            return errno;
    }
    for (const auto& link : links)
        if (::symlinkat(link[0], dirfd, at(link[1])) != 0) return errno;
    if (::mkdirat(dirfd, at("/shm"), 01777) != 0 || ::fchmodat(dirfd, path, 01777, 0) != 0) return errno;
    return 0;
}

namespace {

// The layout in a new detached tmpfs; modes as the bot's own root had them (folders 0755, files
// 0644), set explicitly: the arbiter's umask is 077.
UniqueFd make_skeleton(const SkeletonLayout& layout) {
    // Devices allowed (its nodes), set-user-ID not; each bot's clone is made read-only.
    UniqueFd root = detached_tmpfs({"1m", "4096", MOUNT_ATTR_NOSUID});
    if (!root.valid()) return UniqueFd();
    const int at = root.get();
    for (const auto& dir : layout.dirs)
        if ((::mkdirat(at, dir.c_str(), 0755) != 0 && errno != EEXIST) || ::fchmodat(at, dir.c_str(), 0755, 0) != 0)
            return UniqueFd();
    for (const auto& file : layout.files) {
        const UniqueFd made(::openat(at, file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
        if (!made.valid() || ::fchmod(made.get(), 0644) != 0) return UniqueFd();
    }
    for (const auto& [target, link] : layout.symlinks)
        if (::symlinkat(target.c_str(), at, link.c_str()) != 0) return UniqueFd();
    if (make_dev_at(at, layout.dev.c_str(), layout.device_nodes) != 0) return UniqueFd();
    return root;
}

std::string layout_key(const SkeletonLayout& layout) {
    std::string key = layout.device_nodes ? "nodes\n" : "no nodes\n";
    for (const auto& dir : layout.dirs) key += "d " + dir + '\n';
    for (const auto& file : layout.files) key += "f " + file + '\n';
    for (const auto& [target, link] : layout.symlinks) key += "l " + link + ' ' + target + '\n';
    return key + "dev " + layout.dev;
}

}  // namespace

int view_skeleton(const SkeletonLayout& layout) {
    static std::mutex mutex;
    static auto* const made = new std::map<std::string, UniqueFd>;  // never destroyed: children may clone late
    const std::string key = layout_key(layout);
    const std::lock_guard lock(mutex);
    if (const auto found = made->find(key); found != made->end()) return found->second.get();
    if (made->size() >= kMaxViewSkeletons) return -1;
    UniqueFd skeleton = make_skeleton(layout);
    if (!skeleton.valid()) return -1;
    return made->emplace(key, std::move(skeleton)).first->second.get();
}

}  // namespace arb

#pragma once
// A tmpfs that is never attached anywhere (the new mount API: fsopen, fsconfig, fsmount): the
// descriptor of its root, from which its contents are made (mkdirat, openat, ...) and its mount
// cloned or moved where it is shown. It goes with the last descriptor or mount of it, so nothing
// is left behind by an arbiter that was killed.
#include <cstdint>
#include <string>

#include "core/unique_fd.hpp"

namespace arb {

struct DetachedTmpfs {
    std::string size;            // "64m"
    std::string nr_inodes;       // "" for the kernel's default
    std::uint64_t attributes;    // MOUNT_ATTR_* of the mount (MOUNT_ATTR_NOSUID, ...)
};

// Its root directory at mode 0755, close-on-exec; invalid (errno set) where no mount can be
// made (neither root nor in a user namespace of its own) or an option is refused.
UniqueFd detached_tmpfs(const DetachedTmpfs& options);

}  // namespace arb

#include "core/confine/detached_tmpfs.hpp"

#include <linux/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace arb {

namespace {

int fsconfig_string(int fs, const char* key, const std::string& value) {
    return static_cast<int>(::syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value.c_str(), 0));
}

}  // namespace

UniqueFd detached_tmpfs(const DetachedTmpfs& options) {
    const UniqueFd fs(static_cast<int>(::syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC)));
    if (!fs.valid() || fsconfig_string(fs.get(), "size", options.size) != 0 ||
        (!options.nr_inodes.empty() && fsconfig_string(fs.get(), "nr_inodes", options.nr_inodes) != 0) ||
        fsconfig_string(fs.get(), "mode", "0755") != 0 ||
        ::syscall(SYS_fsconfig, fs.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0)
        return UniqueFd();
    return UniqueFd(static_cast<int>(::syscall(SYS_fsmount, fs.get(), FSMOUNT_CLOEXEC, options.attributes)));
}

}  // namespace arb

#include "core/folder_overlay.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace arb {

namespace {

int fsconfig_string(int fs, const char* key, const std::string& value) {
    return static_cast<int>(::syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value.c_str(), 0));
}

}  // namespace

UniqueFd make_folder_scratch(std::int64_t disk_mib, uid_t upper_uid, gid_t upper_gid, mode_t folder_mode) {
    UniqueFd fs(static_cast<int>(::syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC)));
    if (!fs.valid()) return {};
    const std::int64_t mib = std::max<std::int64_t>(disk_mib, 1);
    // Inodes cost memory outside the size: one per 4 KiB of the bound, as many small files as fit.
    if (fsconfig_string(fs.get(), "size", std::to_string(mib) + "m") != 0 ||
        fsconfig_string(fs.get(), "nr_inodes", std::to_string(mib * 256)) != 0 ||
        fsconfig_string(fs.get(), "mode", "0755") != 0 ||
        ::syscall(SYS_fsconfig, fs.get(), FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) != 0)
        return {};
    UniqueFd scratch(static_cast<int>(
        ::syscall(SYS_fsmount, fs.get(), FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)));
    if (!scratch.valid()) return {};
    if (::mkdirat(scratch.get(), kScratchUpper, 0700) != 0 ||
        ::fchownat(scratch.get(), kScratchUpper, upper_uid, upper_gid, AT_SYMLINK_NOFOLLOW) != 0 ||
        ::fchmodat(scratch.get(), kScratchUpper, folder_mode & 01777, 0) != 0 ||
        ::mkdirat(scratch.get(), kScratchWork, 0700) != 0 || ::mkdirat(scratch.get(), kScratchTmp, 0700) != 0 ||
        ::fchmodat(scratch.get(), kScratchTmp, 01777, 0) != 0)
        return {};
    return scratch;
}

std::string folder_overlay_options(const std::string& folder, const std::string& scratch) {
    // A plain upper tree: no renamed-folder redirects, no index or metadata-only copies, so that
    // every change is a file, a folder, a link or a whiteout the write-back understands (a folder
    // of the lower layer cannot be renamed: the bot's rename falls back to a copy).
    return "lowerdir=" + folder + ",upperdir=" + scratch + "/" + kScratchUpper + ",workdir=" + scratch + "/" +
           kScratchWork + ",redirect_dir=off,index=off,metacopy=off,xino=off,uuid=off";
}

namespace {

// The deepest folder written back: each level holds a descriptor, and a bot could nest folders
// as deep as its scratch allows.
constexpr int kMaxDepth = 128;

class WriteBack {
public:
    FolderWriteBack result;
    uid_t owner_uid = 0;  // what it makes belongs to the folder's owner
    gid_t owner_gid = 0;

    void folder(int upper, int host, int depth) {
        std::vector<std::string> names;
        if (!list(upper, names)) return skip("cannot list a folder", errno);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) entry(upper, host, name, depth);
    }

    // Removes `name` of `dir` (a whole tree when it is a folder), never following a link.
    void remove(int dir, const std::string& name, int depth) {
        struct stat st {};
        if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= kMaxDepth) return skip("folders nested too deep", ELOOP);
            const UniqueFd sub(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (!sub.valid()) return skip("cannot open a folder to remove", errno);
            std::vector<std::string> names;
            if (!list(sub.get(), names)) return skip("cannot list a folder to remove", errno);
            for (const std::string& child : names) remove(sub.get(), child, depth + 1);
            if (::unlinkat(dir, name.c_str(), AT_REMOVEDIR) != 0) return skip("cannot remove a folder", errno);
        } else if (::unlinkat(dir, name.c_str(), 0) != 0) {
            return skip("cannot remove a file", errno);
        }
    }

private:
    // The names in a folder but "." and "..", read through a descriptor of its own.
    static bool list(int dir, std::vector<std::string>& names) {
        DIR* listing = ::fdopendir(::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (listing == nullptr) return false;
        while (const dirent* entry = ::readdir(listing)) {
            const std::string name = entry->d_name;
            if (name != "." && name != "..") names.push_back(name);
        }
        ::closedir(listing);
        return true;
    }

    void skip(const char* what, int error) {
        ++result.skipped;
        if (result.error.empty()) result.error = std::string(what) + ": " + std::strerror(error);
    }

    void entry(int upper, int host, const std::string& name, int depth) {
        struct stat st {};
        if (::fstatat(upper, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return skip("cannot read an entry", errno);
        struct stat existing {};
        const bool exists = ::fstatat(host, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
        if (S_ISCHR(st.st_mode) && st.st_rdev == 0) {  // a whiteout: the bot deleted it
            if (exists) {
                remove(host, name, depth);
                ++result.removed;
            }
            return;
        }
        if (S_ISDIR(st.st_mode)) return folder_entry(upper, host, name, st, exists && S_ISDIR(existing.st_mode), exists, depth);
        if (exists && S_ISDIR(existing.st_mode)) remove(host, name, depth);  // a file where a folder was
        if (S_ISREG(st.st_mode)) return file(upper, host, name, st);
        if (S_ISLNK(st.st_mode)) return link(upper, host, name);
        skip("not a file, folder or link (kept only while the seat ran)", EINVAL);
    }

    void folder_entry(int upper, int host, const std::string& name, const struct stat& st, bool host_is_folder,
                      bool exists, int depth) {
        if (depth >= kMaxDepth) return skip("folders nested too deep", ELOOP);
        const UniqueFd from(::openat(upper, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!from.valid()) return skip("cannot open a folder", errno);
        char opaque = 0;
        const bool replaces = ::fgetxattr(from.get(), "trusted.overlay.opaque", &opaque, 1) == 1 && opaque == 'y';
        if (exists && (!host_is_folder || replaces)) remove(host, name, depth);
        if ((!host_is_folder || replaces) && ::mkdirat(host, name.c_str(), 0700) != 0 && errno != EEXIST)
            return skip("cannot make a folder", errno);
        const UniqueFd to(::openat(host, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!to.valid()) return skip("cannot open a folder", errno);
        if (!host_is_folder || replaces) ::fchown(to.get(), owner_uid, owner_gid);
        ::fchmod(to.get(), st.st_mode & 01777);
        ++result.written;
        folder(from.get(), to.get(), depth + 1);
    }

    void file(int upper, int host, const std::string& name, const struct stat& st) {
        const UniqueFd from(::openat(upper, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!from.valid()) return skip("cannot read a file", errno);
        // Written beside it and renamed over it: the folder never holds half a file.
        static std::atomic<unsigned> counter{0};
        const std::string temporary = ".arbiter-write-back-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        const UniqueFd to(::openat(host, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!to.valid()) return skip("cannot write a file", errno);
        off_t offset = 0;
        while (offset < st.st_size) {
            const ssize_t n = ::sendfile(to.get(), from.get(), &offset, static_cast<std::size_t>(st.st_size - offset));
            if (n <= 0) {
                const int error = n < 0 ? errno : EIO;
                ::unlinkat(host, temporary.c_str(), 0);
                return skip("cannot copy a file", error);
            }
        }
        ::fchown(to.get(), owner_uid, owner_gid);
        ::fchmod(to.get(), st.st_mode & 0777);  // never a set-user-ID or set-group-ID bit
        const timespec times[2] = {st.st_atim, st.st_mtim};
        ::futimens(to.get(), times);
        if (::renameat(host, temporary.c_str(), host, name.c_str()) != 0) {
            const int error = errno;
            ::unlinkat(host, temporary.c_str(), 0);
            return skip("cannot replace a file", error);
        }
        ++result.written;
    }

    void link(int upper, int host, const std::string& name) {
        char target[4096];
        const ssize_t n = ::readlinkat(upper, name.c_str(), target, sizeof target - 1);
        if (n < 0) return skip("cannot read a link", errno);
        target[n] = '\0';
        ::unlinkat(host, name.c_str(), 0);
        if (::symlinkat(target, host, name.c_str()) != 0) return skip("cannot make a link", errno);
        ::fchownat(host, name.c_str(), owner_uid, owner_gid, AT_SYMLINK_NOFOLLOW);
        ++result.written;
    }
};

}  // namespace

FolderWriteBack write_back_folder(int scratch, const std::filesystem::path& folder, uid_t owner_uid, gid_t owner_gid) {
    WriteBack write_back;
    const UniqueFd upper(::openat(scratch, kScratchUpper, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!upper.valid()) {
        write_back.result.error = std::string("cannot open the scratch: ") + std::strerror(errno);
        return write_back.result;
    }
    const UniqueFd host(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!host.valid()) {
        write_back.result.error = "cannot open " + folder.string() + ": " + std::strerror(errno);
        return write_back.result;
    }
    write_back.owner_uid = owner_uid;
    write_back.owner_gid = owner_gid;
    write_back.folder(upper.get(), host.get(), 0);
    return write_back.result;
}

}  // namespace arb

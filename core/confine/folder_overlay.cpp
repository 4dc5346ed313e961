#include "core/confine/folder_overlay.hpp"

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
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/confine/detached_tmpfs.hpp"

namespace arb {

UniqueFd make_folder_scratch(std::int64_t disk_mib, uid_t upper_uid, gid_t upper_gid, mode_t folder_mode) {
    const std::int64_t mib = std::max<std::int64_t>(disk_mib, 1);
    // Inodes cost memory outside the size: one per 4 KiB of the bound, as many small files as fit.
    UniqueFd scratch = detached_tmpfs({std::to_string(mib) + "m", std::to_string(mib * 256), MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV});
    if (!scratch.valid()) return {};
    if (::mkdirat(scratch.get(), kScratchUpper, 0700) != 0 ||
        ::fchownat(scratch.get(), kScratchUpper, upper_uid, upper_gid, AT_SYMLINK_NOFOLLOW) != 0 ||
        ::fchmodat(scratch.get(), kScratchUpper, folder_mode & 01777, 0) != 0 ||
        ::mkdirat(scratch.get(), kScratchWork, 0700) != 0 || ::mkdirat(scratch.get(), kScratchTmp, 0700) != 0 ||
        ::fchmodat(scratch.get(), kScratchTmp, 01777, 0) != 0)
        return {};
    return scratch;
}

std::string folder_overlay_options(const std::string& folder, const std::string& scratch, bool user_xattrs) {
    // A plain upper tree: no renamed-folder redirects (made or followed: "off" follows them, which
    // a user namespace's overlay does not allow), no index or metadata-only copies, so that
    // every change is a file, a folder, a link or a whiteout the write-back understands (a folder
    // of the lower layer cannot be renamed: the bot's rename falls back to a copy).
    return "lowerdir=" + folder + ",upperdir=" + scratch + "/" + kScratchUpper + ",workdir=" + scratch + "/" +
           kScratchWork + (user_xattrs ? ",redirect_dir=nofollow,userxattr" : ",redirect_dir=off") +
           ",index=off,metacopy=off,xino=off,uuid=off";
}

namespace {

// The names in a folder but "." and "..", read through a descriptor of its own.
bool list_folder(int dir, std::vector<std::string>& names) {
    DIR* listing = ::fdopendir(::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (listing == nullptr) return false;
    while (const dirent* entry = ::readdir(listing)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(listing);
    return true;
}

struct FolderSize {
    std::int64_t bytes = 0;    // of its regular files
    std::int64_t entries = 0;  // files, folders and links
};

// What a folder's tree holds, links not followed, `depth` levels at most.
void measure_folder(int dir, int depth, FolderSize& size) {
    std::vector<std::string> names;
    if (depth < 0 || !list_folder(dir, names)) return;
    for (const std::string& name : names) {
        struct stat st {};
        if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        ++size.entries;
        if (S_ISREG(st.st_mode)) size.bytes += st.st_size;
        if (!S_ISDIR(st.st_mode)) continue;
        const UniqueFd sub(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (sub.valid()) measure_folder(sub.get(), depth - 1, size);
    }
}

// Whether a relative link `depth` folders below the top stays below it, name by name.
bool stays_inside(const std::string& target, int depth) {
    if (target.empty() || target[0] == '/') return false;
    int level = depth;
    std::size_t from = 0;
    while (from <= target.size()) {
        const std::size_t to = std::min(target.find('/', from), target.size());
        const std::string_view name(target.data() + from, to - from);
        if (name == "..") --level;
        else if (!name.empty() && name != ".") ++level;
        if (level < 0) return false;
        from = to + 1;
    }
    return true;
}

class WriteBack {
public:
    FolderWriteBack result;
    uid_t owner_uid = 0;  // what it makes belongs to the folder's owner
    gid_t owner_gid = 0;
    WriteBackBounds bounds;
    int top = -1;  // the folder itself, for its size

    // `path_length`: bytes of the folder's path below the top.
    void folder(int upper, int host, int depth, std::size_t path_length) {
        std::vector<std::string> names;
        if (!list_folder(upper, names)) return skip("cannot list a folder", errno);
        std::sort(names.begin(), names.end());
        for (const std::string& name : names) {
            if (++entries_ > bounds.max_entries) {
                skip("past " + std::to_string(bounds.max_entries) + " entries");
                continue;
            }
            if (path_length + 1 + name.size() > bounds.max_path)
                skip("a path longer than " + std::to_string(bounds.max_path) + " bytes");
            else entry(upper, host, name, depth, path_length + 1 + name.size());
        }
    }

    // Removes `name` of `dir` (a whole tree when it is a folder), never following a link.
    void remove(int dir, const std::string& name, int depth) {
        struct stat st {};
        if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= kRemoveDepth) return skip("folders nested too deep to remove", ELOOP);
            const UniqueFd sub(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (!sub.valid()) return skip("cannot open a folder to remove", errno);
            std::vector<std::string> names;
            if (!list_folder(sub.get(), names)) return skip("cannot list a folder to remove", errno);
            for (const std::string& child : names) remove(sub.get(), child, depth + 1);
            if (::unlinkat(dir, name.c_str(), AT_REMOVEDIR) != 0) return skip("cannot remove a folder", errno);
        } else if (::unlinkat(dir, name.c_str(), 0) != 0) {
            return skip("cannot remove a file", errno);
        }
    }

private:
    // Removing what is in the host's folder goes deeper than writing: it may hold what the
    // owner put there before the bound.
    static constexpr int kRemoveDepth = 256;

    // Skipped entries, counted by reason in the order the reasons first came (FolderWriteBack::error).
    void skip(const std::string& what, int error = 0) {
        ++result.skipped;
        const std::string reason = error != 0 ? what + ": " + std::strerror(error) : what;
        const auto found = std::find_if(reasons_.begin(), reasons_.end(), [&](const auto& r) { return r.first == reason; });
        if (found != reasons_.end()) ++found->second;
        else reasons_.emplace_back(reason, 1);
    }

public:
    // "reason (N), reason (N)", or "" when nothing was skipped.
    std::string skipped_reasons() const {
        std::string text;
        for (const auto& [reason, count] : reasons_)
            text += (text.empty() ? "" : ", ") + reason + " (" + std::to_string(count) + ")";
        return text;
    }

private:

    void entry(int upper, int host, const std::string& name, int depth, std::size_t path_length) {
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
        if (S_ISDIR(st.st_mode))
            return folder_entry(upper, host, name, st, exists && S_ISDIR(existing.st_mode), exists, depth, path_length);
        if (S_ISLNK(st.st_mode)) {
            if (!exists && !entry_fits()) return;
            return link(upper, host, name, depth, exists && S_ISDIR(existing.st_mode));
        }
        if (!S_ISREG(st.st_mode)) return skip("not a file, folder or link (kept only while the seat ran)");
        if (exists && S_ISDIR(existing.st_mode)) remove(host, name, depth);  // a file where a folder was
        file(upper, host, name, st, exists && S_ISREG(existing.st_mode) ? existing.st_size : 0, !exists);
    }

    void folder_entry(int upper, int host, const std::string& name, const struct stat& st, bool host_is_folder,
                      bool exists, int depth, std::size_t path_length) {
        if (depth >= bounds.max_depth)
            return skip("a folder nested deeper than " + std::to_string(bounds.max_depth) + " levels");
        const UniqueFd from(::openat(upper, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!from.valid()) return skip("cannot open a folder", errno);
        char opaque = 0;
        // trusted.* as a host root mounts the overlay, user.* in a user namespace (userxattr).
        const bool replaces = (::fgetxattr(from.get(), "trusted.overlay.opaque", &opaque, 1) == 1 ||
                               ::fgetxattr(from.get(), "user.overlay.opaque", &opaque, 1) == 1) &&
                              opaque == 'y';
        if (!exists && !entry_fits()) return;
        if (exists && (!host_is_folder || replaces)) remove(host, name, depth);
        if ((!host_is_folder || replaces) && ::mkdirat(host, name.c_str(), 0700) != 0 && errno != EEXIST)
            return skip("cannot make a folder", errno);
        const UniqueFd to(::openat(host, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!to.valid()) return skip("cannot open a folder", errno);
        if (!host_is_folder || replaces) ::fchown(to.get(), owner_uid, owner_gid);
        ::fchmod(to.get(), st.st_mode & 01777);
        ++result.written;
        folder(from.get(), to.get(), depth + 1, path_length);
    }

    // Whether a file of `bytes` fits in the folder's bounds (`replaced`: bytes of the file it
    // replaces; `is_new`: no entry of that name was there).
    bool fits(std::int64_t bytes, std::int64_t replaced, bool is_new) {
        if (bounds.folder_bytes <= 0 && bounds.folder_entries <= 0) return true;
        if (!held_) {
            held_ = FolderSize{};
            measure_folder(top, kRemoveDepth, *held_);
        }
        if (bounds.folder_bytes > 0 && held_->bytes - replaced + bytes > bounds.folder_bytes) return false;
        if (bounds.folder_entries > 0 && is_new && held_->entries + 1 > bounds.folder_entries) return false;
        held_->bytes += bytes - replaced;
        held_->entries += is_new ? 1 : 0;
        return true;
    }

    bool entry_fits() {
        if (fits(0, 0, true)) return true;
        skip("an entry past the folder's bound of " + std::to_string(bounds.folder_entries) + " entries");
        return false;
    }

    void file(int upper, int host, const std::string& name, const struct stat& st, std::int64_t replaced, bool is_new) {
        if (!fits(st.st_size, replaced, is_new))
            return skip("a file past the folder's bounds (" + std::to_string(bounds.folder_bytes >> 20) + " MiB, " +
                        std::to_string(bounds.folder_entries) + " entries)");
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

    // Only a relative link that stays inside the folder: one leading out would be followed by
    // whoever reads the folder next, the arbiter at the next match or a person.
    void link(int upper, int host, const std::string& name, int depth, bool host_is_folder) {
        char target[4096];
        const ssize_t n = ::readlinkat(upper, name.c_str(), target, sizeof target - 1);
        if (n < 0) return skip("cannot read a link", errno);
        target[n] = '\0';
        if (!stays_inside(target, depth)) return skip("a link leading out of the folder");
        if (host_is_folder) remove(host, name, depth);
        ::unlinkat(host, name.c_str(), 0);
        if (::symlinkat(target, host, name.c_str()) != 0) return skip("cannot make a link", errno);
        ::fchownat(host, name.c_str(), owner_uid, owner_gid, AT_SYMLINK_NOFOLLOW);
        ++result.written;
    }

    int entries_ = 0;
    std::vector<std::pair<std::string, int>> reasons_;
    std::optional<FolderSize> held_;  // what the folder holds, measured at the first new entry
};

}  // namespace

FolderWriteBack write_back_folder(int scratch, const std::filesystem::path& folder, uid_t owner_uid, gid_t owner_gid,
                                  const WriteBackBounds& bounds) {
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
    write_back.bounds = bounds;
    write_back.top = host.get();
    write_back.folder(upper.get(), host.get(), 0, 0);
    write_back.result.error = write_back.skipped_reasons();
    return write_back.result;
}

}  // namespace arb

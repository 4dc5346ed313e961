#pragma once
// One bound on everything a confined bot writes: its own folder and its /tmp share a scratch
// tmpfs of --disk-mib. The folder is shown as an overlay whose lower layer is the folder itself
// (read through, never written) and whose upper layer lives on the scratch; /tmp is a folder of
// the same scratch. The arbiter holds the scratch (a detached mount) and, once every process of
// the seat is gone, writes the overlay's changes into the real folder (its owner's files),
// never following a symbolic link the bot may have left there. A bot therefore cannot fill
// the host's disk, whichever number of files it writes, and what it writes reaches its folder
// when its seat ends (docs/core.md "Confinement").
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/unique_fd.hpp"

namespace arb {

// The scratch's folders, relative to its root.
inline constexpr const char* kScratchUpper = "upper";
inline constexpr const char* kScratchWork = "work";
inline constexpr const char* kScratchTmp = "tmp";

// A detached tmpfs of `disk_mib` MiB (and a proportionate number of inodes) holding an empty
// upper folder owned by `upper_uid`:`upper_gid` with `folder_mode` (the merged folder shows the
// upper folder's owner and mode), the overlay's work folder and a sticky world-writable tmp.
// Invalid (errno set) when the kernel cannot make one.
UniqueFd make_folder_scratch(std::int64_t disk_mib, uid_t upper_uid, gid_t upper_gid, mode_t folder_mode);

// The overlay's mount options for a folder at `folder` over a scratch placed at `scratch`.
// `user_xattrs`: mounted in a user namespace (an unprivileged arbiter's), where the overlay keeps
// its marks in user.overlay.* attributes instead of trusted.*.
std::string folder_overlay_options(const std::string& folder, const std::string& scratch, bool user_xattrs = false);

struct FolderWriteBack {
    int written = 0;   // files, links and folders made or replaced
    int removed = 0;   // entries the bot deleted
    int skipped = 0;   // entries that could not be written back (see error)
    std::string error;  // why entries were skipped, each reason with its count; "" when none
};

// What one write-back may do to a folder, whatever the bot left on its scratch: the host's tools
// must be able to handle every path it makes, and its time is bounded by the count of entries.
struct WriteBackBounds {
    int max_entries = 10000;         // files, folders and links made, replaced or removed
    int max_depth = 64;              // folders below the bot's folder
    std::size_t max_path = 1024;     // bytes of a path below the bot's folder
    std::int64_t folder_bytes = 0;   // the folder's files hold at most this many bytes; 0: no bound
    // The folder holds at most this many entries once new ones are written (with folder_bytes:
    // a bot adding empty files under new names each match would grow it without bytes).
    std::int64_t folder_entries = 100000;
};

// Applies the overlay's upper layer of `scratch` to `folder`: new and changed files (set-id bits
// dropped), folders, symbolic links that stay inside the folder (a link leading out of it, or an
// absolute one, is dropped: the next reader of the folder, the arbiter or a person, would follow
// it), and deletions (whiteouts, opaque folders); what it makes belongs to
// `owner_uid`:`owner_gid`. Every entry is opened by one name relative to its parent without
// following symbolic links, and files are written beside their name and renamed over it, so
// nothing outside `folder` is touched (the bot's permissions were checked by the overlay when it
// wrote). What lies past `bounds` is skipped. Never throws.
FolderWriteBack write_back_folder(int scratch, const std::filesystem::path& folder, uid_t owner_uid, gid_t owner_gid,
                                  const WriteBackBounds& bounds = {});

// A confined seat's scratch and the folder its changes go to, held from the start until every
// process of the seat is gone.
struct FolderScratch {
    UniqueFd scratch;
    std::filesystem::path folder;
    uid_t owner_uid = 0;
    gid_t owner_gid = 0;
    WriteBackBounds bounds;

    bool valid() const { return scratch.valid(); }
    // Writes the changes back once and lets the scratch go.
    FolderWriteBack write_back() {
        FolderWriteBack done = write_back_folder(scratch.get(), folder, owner_uid, owner_gid, bounds);
        scratch.reset();
        return done;
    }
};

}  // namespace arb

#pragma once
// Paths that pass through folders a bot may write. A bot's folder persists between matches, so
// whatever the bot left there (a link to another contestant's folder, to the match's outputs, to
// /) is hostile input the next time the arbiter reads a name there. These resolve such names
// without ever following a link that lies in a bot's folder: a name inside the bot's own folder
// is reached through the folder (in the view, where a link leads only to what the view shows),
// and the host is read there only beneath the folder (openat2 RESOLVE_BENEATH).
#include <filesystem>
#include <string>
#include <vector>

#include "core/unique_fd.hpp"

namespace arb {

// Whether `p` is `folder` or lies in it (both absolute and lexically normal).
bool path_inside(const std::filesystem::path& p, const std::filesystem::path& folder);

// Opens `relative` beneath the folder `folder` (a descriptor of it) without leaving it: a link
// may lead only to another name beneath it, never out (an absolute link, or ".." past the
// folder, fails with EXDEV), and /proc's magic links are refused. Invalid (errno set) otherwise.
UniqueFd open_beneath(int folder, const std::filesystem::path& relative, int flags);

// Where a path the user wrote leads on the host.
struct HostPath {
    enum class Where {
        absent,      // nothing there (or a loop of links)
        own_folder,  // in the bot's own folder: reached through it, never resolved on the host
        host,        // `path`, with every link outside bots' folders followed
    };
    Where where = Where::absent;
    std::filesystem::path path;  // host: where it leads; own_folder: the name in the folder
};

// Folders whose links are never followed: the bot's own (`own`, as written and as its real
// path), and the folders of every other bot the arbiter runs (`others`), which a path may not
// enter at all.
struct BotFolders {
    std::vector<std::filesystem::path> own;
    std::vector<std::filesystem::path> others;
};

// Resolves `path` (absolute) one name at a time, following links only where they lie outside
// every bot's folder. A path that enters another bot's folder is a UserError naming `what`.
HostPath resolve_host_path(const std::filesystem::path& path, const BotFolders& folders, const std::string& what);

}  // namespace arb

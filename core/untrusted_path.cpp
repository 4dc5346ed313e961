#include "core/untrusted_path.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/user_error.hpp"

namespace arb {

namespace fs = std::filesystem;

bool path_inside(const fs::path& p, const fs::path& folder) {
    // "/a/b/" is the folder "/a/b" (lexically_normal keeps a trailing separator).
    auto trimmed = [](std::string_view text) {
        while (text.size() > 1 && text.back() == '/') text.remove_suffix(1);
        return text;
    };
    const std::string_view s = trimmed(p.native());
    const std::string_view f = trimmed(folder.native());
    if (f == "/") return true;
    return s == f || (s.size() > f.size() && s.compare(0, f.size(), f) == 0 && s[f.size()] == '/');
}

UniqueFd open_beneath(int folder, const fs::path& relative, int flags) {
    open_how how{};
    how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return UniqueFd(static_cast<int>(::syscall(SYS_openat2, folder, relative.c_str(), &how, sizeof how)));
}

namespace {

// The kernel's own bound on links followed in one lookup.
constexpr int kMaxLinks = 40;

// Puts the names of `p` in front of those still to walk (`pending` holds them last first).
void walk_next(std::vector<std::string>& pending, const fs::path& p) {
    std::vector<std::string> names;
    for (const auto& name : p.relative_path()) names.push_back(name.string());
    pending.insert(pending.end(), names.rbegin(), names.rend());
}

fs::path rest_of(fs::path at, const std::vector<std::string>& pending) {
    for (auto name = pending.rbegin(); name != pending.rend(); ++name) at /= *name;
    return at.lexically_normal();
}

}  // namespace

HostPath resolve_host_path(const fs::path& path, const BotFolders& folders, const std::string& what) {
    std::vector<std::string> pending;
    walk_next(pending, path);
    fs::path current = "/";
    int links = 0;
    while (!pending.empty()) {
        const std::string name = std::move(pending.back());
        pending.pop_back();
        if (name.empty() || name == ".") continue;
        if (name == "..") {
            current = current.parent_path();  // the root's parent is the root
            continue;
        }
        const fs::path next = current / name;
        for (const auto& own : folders.own)
            if (path_inside(next, own)) return {HostPath::Where::own_folder, rest_of(next, pending)};
        for (const auto& other : folders.others)
            if (path_inside(next, other))
                throw UserError(what + " leads into another bot's folder, " + other.string() +
                                ", which that bot may change between matches");
        struct stat st {};
        if (::lstat(next.c_str(), &st) != 0) return {};
        if (!S_ISLNK(st.st_mode)) {
            current = next;
            continue;
        }
        if (++links > kMaxLinks) return {};
        char target[4096];
        const ssize_t n = ::readlink(next.c_str(), target, sizeof target - 1);
        if (n <= 0) return {};
        const fs::path to(std::string(target, static_cast<std::size_t>(n)));
        if (to.is_absolute()) current = "/";
        walk_next(pending, to);
    }
    return {HostPath::Where::host, current};
}

}  // namespace arb

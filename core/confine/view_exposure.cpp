// What one confined bot's view shows besides the base view: its program, what its command names,
// the interpreter of a script, ro= paths (sandbox_view.hpp, exposed_paths). Every name is
// resolved without following a link that lies in a bot's folder (core/untrusted_path.hpp): what
// a bot left in its folder in an earlier match never decides what the arbiter shows it now.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <optional>

#include "core/bot_spec.hpp"
#include "core/confine/sandbox_view.hpp"
#include "core/untrusted_path.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace fs = std::filesystem;

namespace {

// Folders of a version manager's installs (pyenv, nvm, rbenv, ...): a program inside one needs the
// whole tree (a pyenv shim runs pyenv's scripts, which find the chosen version under the root).
constexpr std::array<const char*, 19> kVersionManagerRoots = {
    ".pyenv", ".nvm",    ".rbenv", ".nodenv", ".goenv", ".jenv",    ".asdf",    ".sdkman",  ".volta", ".cargo",
    ".rustup", ".bun",   ".deno",  ".ghcup",  ".opam",  ".juliaup", "miniconda3", "anaconda3", ".local"};

std::optional<fs::path> version_manager_root(const fs::path& p) {
    fs::path so_far = "/";
    for (const auto& part : p.relative_path()) {
        so_far /= part;
        for (const char* root : kVersionManagerRoots)
            if (part == root) return so_far;
    }
    return std::nullopt;
}

// Paths every view has anyway, or never shows.
bool in_base_or_hidden(const fs::path& p) {
    for (const char* folder : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/dev", "/sys", "/etc"})
        if (path_inside(p, folder)) return true;
    return false;
}

struct Shebang {
    fs::path interpreter;
    std::string word;  // its first argument, if any
};

// "#!/path/to/interpreter [word]" at the start of the open file `fd`. Only a regular file is read:
// the program may have become a FIFO since it was checked (another match of the same bot), and
// it is opened without blocking, so that nothing a bot leaves can hold the arbiter.
std::optional<Shebang> read_shebang(const UniqueFd& fd) {
    struct stat st {};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    char head[256] = {};
    const ssize_t n = ::pread(fd.get(), head, sizeof head - 1, 0);
    const std::string text(head, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (text.rfind("#!", 0) != 0) return std::nullopt;
    const auto start = text.find_first_not_of(" \t", 2);
    if (start == std::string::npos || text[start] != '/') return std::nullopt;
    const auto end = text.find_first_of(" \t\r\n", start);
    Shebang shebang{text.substr(start, end == std::string::npos ? std::string::npos : end - start), {}};
    if (end != std::string::npos && text[end] != '\n' && text[end] != '\r') {
        const auto from = text.find_first_not_of(" \t", end);
        const auto to = from == std::string::npos ? from : text.find_first_of(" \t\r\n", from);
        if (from != std::string::npos) shebang.word = text.substr(from, to == std::string::npos ? std::string::npos : to - from);
    }
    return shebang;
}

class Exposure {
public:
    explicit Exposure(const ExposureRequest& request) : request_(request) {
        std::error_code ec;
        paths_.cwd = request.dir.empty() ? fs::current_path() : fs::absolute(request.dir).lexically_normal();
        if (!request.dir.empty()) {
            paths_.writable = paths_.cwd;
            folders_.own.push_back(paths_.writable);
            const fs::path real = fs::canonical(paths_.writable, ec);
            if (!ec && real != paths_.writable) folders_.own.push_back(real);
        }
        for (const auto& other : request.other_bot_folders) {
            const fs::path folder = fs::absolute(other).lexically_normal();
            if (std::find(folders_.own.begin(), folders_.own.end(), folder) != folders_.own.end()) continue;  // the same folder twice
            folders_.others.push_back(folder);
            const fs::path real = fs::canonical(folder, ec);
            if (!ec && real != folder) folders_.others.push_back(real);
        }
    }

    ExposedPaths build() {
        program();
        for (std::size_t i = 1; i < request_.argv.size(); ++i) {
            const std::string& word = request_.argv[i];
            if (!word.empty() && word.size() < 4096) want(paths_.cwd / word, "its argument '" + word + "'");
        }
        for (const auto& p : request_.extra_read_only) want(fs::absolute(p), "ro=" + p.string());
        keep_outermost();
        return std::move(paths_);
    }

private:
    // The program, and the interpreter of a script. A script in the bot's folder is the bot's to
    // rewrite between matches: its interpreter is shown only where the arbiter's own PATH finds it.
    void program() {
        const HostPath found = want(request_.executable, "its program");
        if (found.where == HostPath::Where::host) {
            const auto shebang = read_shebang(UniqueFd(::open(found.path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)));
            if (shebang) interpreter(*shebang, true);
        } else if (found.where == HostPath::Where::own_folder) {
            const UniqueFd folder(::open(paths_.writable.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
            const fs::path relative = found.path.lexically_relative(paths_.writable);
            if (!folder.valid() || relative.empty() || *relative.begin() == "..") return;
            if (const auto shebang = read_shebang(open_beneath(folder.get(), relative, O_RDONLY | O_NONBLOCK)))
                interpreter(*shebang, false);
        }
    }

    void interpreter(const Shebang& shebang, bool trusted) {
        // "#!/usr/bin/env python3": the program env will find on PATH.
        if (shebang.interpreter.filename() == "env" && !shebang.word.empty()) {
            if (const auto found = find_in_path(shebang.word)) want(*found, "the interpreter of its script");
        }
        if (trusted || in_base_or_hidden(shebang.interpreter)) {
            want(shebang.interpreter, "the interpreter of its script");
            return;
        }
        paths_.warnings.push_back("the interpreter " + shebang.interpreter.string() +
                                  " of its script is not shown: the script lies in its own folder, which it may "
                                  "rewrite (ro=" + shebang.interpreter.string() + " shows it)");
    }

    // Shows `p` as written and where its links lead, unless the bot's folder holds it.
    HostPath want(const fs::path& p, const std::string& what) {
        if (!p.is_absolute()) return {};
        const HostPath found = resolve_host_path(p, folders_, "bot '" + request_.bot_name + "': " + what);
        if (found.where != HostPath::Where::host) return found;
        // The path as written must resolve in the view too ("bin/../bots/bot" passes through bin).
        fs::path so_far;
        for (auto part = p.begin(); part != p.end(); ++part) {
            std::error_code ec;
            if (std::next(part) != p.end() && *std::next(part) == ".." && so_far.has_relative_path() &&
                fs::is_directory(so_far / *part, ec))
                paths_.passed_through.push_back((so_far / *part).lexically_normal());
            so_far /= *part;
        }
        for (const fs::path& q : {p.lexically_normal(), found.path}) {
            if (in_base_or_hidden(q)) continue;
            const fs::path shown = version_manager_root(q).value_or(q);
            refuse_private(shown, what);
            wanted_.push_back(shown);
        }
        return found;
    }

    // Never `/`, nor a folder holding the bot's folder, another bot's, the arbiter's working
    // folder or a private path (nor anything inside a private path).
    void refuse_private(const fs::path& shown, const std::string& what) const {
        auto refuse = [&](const fs::path& hidden, const std::string& which) {
            throw UserError("bot '" + request_.bot_name + "': " + what + " would show " + shown.string() + ", which holds " +
                            which + " (" + hidden.string() + ")");
        };
        for (const auto& own : folders_.own)
            if (shown != own && path_inside(own, shown)) refuse(own, "its own folder");
        for (const auto& other : folders_.others)
            if (path_inside(other, shown)) refuse(other, "another bot's folder");
        // Programs may lie in the arbiter's working folder, but never show the folder itself.
        if (const fs::path cwd = fs::current_path(); path_inside(cwd, shown)) refuse(cwd, "the arbiter's working folder");
        for (const auto& hidden : request_.private_paths) {
            const fs::path full = fs::absolute(hidden).lexically_normal();
            if (path_inside(full, shown) || path_inside(shown, full)) refuse(full, "the arbiter's own files");
        }
    }

    // Parents first, then drop what another entry (or the writable folder) already shows.
    void keep_outermost() {
        std::sort(wanted_.begin(), wanted_.end());
        for (const auto& p : wanted_) {
            if (!paths_.writable.empty() && path_inside(p, paths_.writable)) continue;
            if (std::any_of(paths_.read_only.begin(), paths_.read_only.end(), [&](const fs::path& q) { return path_inside(p, q); }))
                continue;
            paths_.read_only.push_back(p);
        }
    }

    const ExposureRequest& request_;
    BotFolders folders_;
    ExposedPaths paths_;
    std::vector<fs::path> wanted_;
};

}  // namespace

ExposedPaths exposed_paths(const ExposureRequest& request) { return Exposure(request).build(); }

}  // namespace arb

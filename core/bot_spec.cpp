#include "core/bot_spec.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

#include "core/did_you_mean.hpp"
#include "core/untrusted_path.hpp"
#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb {

std::vector<std::string> split_command_line(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (c == quote) {
                quote = 0;
            } else if (c == '\\' && quote == '"' && i + 1 < line.size() &&
                       (line[i + 1] == '"' || line[i + 1] == '\\')) {
                word += line[++i];
            } else {
                word += c;
            }
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == '\\') {
            // A backslash escapes the next character; a last one escapes nothing (and would
            // escape the space before any arg= appended to the command).
            if (i + 1 == line.size()) throw UserError("dangling backslash at the end of: " + std::string(line));
            word += line[++i];
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote != 0) throw UserError("unterminated quote in: " + std::string(line));
    if (in_word) words.push_back(std::move(word));
    return words;
}

std::string quote_word(std::string_view word) {
    if (!word.empty() && word.find_first_of(" \t\n'\"\\") == std::string_view::npos) return std::string(word);
    std::string out = "\"";
    for (char c : word) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

BotSpec parse_bot_spec(std::string_view spec) {
    BotSpec bot;
    std::vector<std::string> extra_args;
    bool have_cmd = false;
    for (const std::string& field : split_command_line(spec)) {
        const auto eq = field.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw UserError("bot spec '" + std::string(spec) + "': expected KEY=VALUE, got '" + field +
                            "' (keys: name, cmd, dir, arg, ro, env.KEY)");
        }
        const std::string key = field.substr(0, eq);
        std::string value = field.substr(eq + 1);
        if (key == "name") {
            bot.name = valid_utf8(value);
        } else if (key == "cmd") {
            bot.command = value;
            have_cmd = true;
        } else if (key == "url") {
            bot.url = std::move(value);
        } else if (key == "dir") {
            bot.dir = value;
        } else if (key == "ro") {
            if (value.empty()) throw UserError("bot spec '" + std::string(spec) + "': ro= needs a path");
            bot.read_only.emplace_back(std::move(value));
        } else if (key == "arg") {
            extra_args.push_back(std::move(value));
        } else if (key.rfind("env.", 0) == 0 && key.size() > 4) {
            bot.env[key.substr(4)] = std::move(value);
        } else {
            throw UserError("bot spec '" + std::string(spec) + "': unknown key '" + key + "'" +
                            did_you_mean(key, {"name", "cmd", "url", "dir", "arg", "ro"}) +
                            " (keys: name, cmd, url, dir, arg, ro, env.KEY)");
        }
    }
    if (!bot.url.empty()) {
        // Nothing starts a url= bot, so a dir= or env. would be silently dropped (and lost from
        // the spec the store keeps).
        if (have_cmd || !extra_args.empty() || !bot.dir.empty() || !bot.env.empty() ||
            !bot.read_only.empty())
            throw UserError("bot spec '" + std::string(spec) + "': url= names a running bot; it takes no cmd=, arg=, dir=, ro= or env.");
        if (bot.url.rfind("http://", 0) != 0) throw UserError("bot spec '" + std::string(spec) + "': url must start with http://");
        if (bot.name.empty()) bot.name = valid_utf8(bot.url);
        return bot;
    }
    if (!have_cmd || bot.command.empty()) {
        throw UserError("bot spec '" + std::string(spec) + "': missing cmd=\"COMMAND\"");
    }
    bot.argv = split_command_line(bot.command);
    if (bot.argv.empty()) throw UserError("bot spec '" + std::string(spec) + "': cmd is empty");
    for (auto& a : extra_args) {
        bot.command += " " + quote_word(a);
        bot.argv.push_back(std::move(a));
    }
    // Names go into JSON records and the store: UTF-8 like a name= given (valid_utf8).
    if (bot.name.empty()) bot.name = valid_utf8(std::filesystem::path(bot.argv[0]).filename().string());
    return bot;
}

std::string to_spec_string(const BotSpec& bot) {
    if (!bot.url.empty()) return "name=" + quote_word(bot.name) + " url=" + quote_word(bot.url);
    std::string out = "name=" + quote_word(bot.name) + " cmd=" + quote_word(bot.command);
    if (!bot.dir.empty()) out += " dir=" + quote_word(bot.dir.string());
    for (const auto& p : bot.read_only) out += " ro=" + quote_word(p.string());
    for (const auto& [k, v] : bot.env) out += " " + quote_word("env." + k + "=" + v);
    return out;
}

namespace {
bool is_executable(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// A program in the bot's own folder, looked at without following a link out of the folder: what
// the bot left there is not the arbiter's to follow (core/untrusted_path.hpp).
bool is_executable_beneath(const std::filesystem::path& folder, const std::filesystem::path& relative) {
    const UniqueFd dir(::open(folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!dir.valid()) return false;
    const UniqueFd program = open_beneath(dir.get(), relative, O_PATH);
    struct stat st {};
    return program.valid() && ::fstat(program.get(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::syscall(SYS_faccessat2, program.get(), "", X_OK, AT_EMPTY_PATH) == 0;
}

// Why a program cannot be run, from lstat alone: what a bot left in its folder is never opened
// to find out.
std::string not_runnable_reason(const std::filesystem::path& program) {
    struct stat st {};
    if (::lstat(program.c_str(), &st) != 0) {
        const int error = errno;
        std::error_code ec;
        if (error == ENOENT && !std::filesystem::is_directory(program.parent_path(), ec)) return "no folder " + program.parent_path().string();
        return std::strerror(error) + (error == ENOENT ? did_you_mean_file(program) : std::string());
    }
    if (S_ISDIR(st.st_mode)) return "it is a folder";
    if (!S_ISREG(st.st_mode)) return "not a regular file";
    return "not executable (chmod +x?)";
}
}  // namespace

std::optional<std::filesystem::path> find_in_path(const std::string& program) {
    const char* path_env = std::getenv("PATH");
    std::string_view path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
    while (!path.empty()) {
        const auto colon = path.find(':');
        const std::string_view entry = path.substr(0, colon);
        if (!entry.empty()) {
            std::filesystem::path candidate = std::filesystem::path(entry) / program;
            if (is_executable(candidate)) return candidate;
        }
        if (colon == std::string_view::npos) break;
        path.remove_prefix(colon + 1);
    }
    return std::nullopt;
}

std::filesystem::path resolve_executable(const BotSpec& bot) {
    const std::string& program = bot.argv.at(0);
    if (program.find('/') != std::string::npos) {
        std::filesystem::path p(program);
        if (p.is_relative() && !bot.dir.empty()) p = bot.dir / p;
        const auto folder = bot.dir.empty() ? std::filesystem::path() : std::filesystem::absolute(bot.dir).lexically_normal();
        const auto full = std::filesystem::absolute(p).lexically_normal();
        const bool in_folder = !folder.empty() && path_inside(full, folder) && full != folder;
        if (!(in_folder ? is_executable_beneath(folder, full.lexically_relative(folder)) : is_executable(p))) {
            std::error_code ec;
            if (in_folder && std::filesystem::is_symlink(full, ec))
                throw UserError("bot '" + bot.name + "': its program '" + full.string() +
                                "' is a link leading out of its folder, which the arbiter does not follow (a bot may have "
                                "left it there); name the program's own path in cmd=");
            throw UserError("bot '" + bot.name + "': cannot run '" + full.string() + "': " + not_runnable_reason(full));
        }
        // Absolute: a confined bot starts in a view whose working folder is not the arbiter's.
        return std::filesystem::absolute(p);
    }
    if (auto found = find_in_path(program)) return *found;
    throw UserError("bot '" + bot.name + "': no program '" + program + "' in any folder of $PATH; give its path, e.g. cmd=./" +
                    program);
}

void check_bots(const std::vector<BotSpec>& bots) {
    std::set<std::string> names;
    for (const auto& bot : bots) {
        if (bot.name.empty()) throw UserError("a bot has an empty name");
        if (!bot.dir.empty() && !std::filesystem::is_directory(bot.dir)) {
            throw UserError("bot '" + bot.name + "': dir '" + bot.dir.string() + "' is not a directory");
        }
        if (bot.url.empty()) resolve_executable(bot);
        // A folder inside another bot's: that bot could replace a folder above it with a link.
        for (const auto& other : bots) {
            if (bot.dir.empty() || other.dir.empty()) continue;
            const auto mine = std::filesystem::absolute(bot.dir).lexically_normal();
            const auto theirs = std::filesystem::absolute(other.dir).lexically_normal();
            if (mine != theirs && path_inside(mine, theirs))
                throw UserError("bot '" + bot.name + "': its folder " + mine.string() + " lies inside bot '" + other.name +
                                "''s folder, which that bot may change between matches; give each bot a folder of its own");
        }
        if (!names.insert(bot.name).second) {
            throw UserError("two bots are named '" + bot.name + "': give each seat its own name= (results are stored by name)");
        }
    }
}

}  // namespace arb

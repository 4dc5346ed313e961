#pragma once
// A bot as users name it on the command line or in a config file, in the style of
// engine-match tools:
//   name=NAME cmd="COMMAND LINE" [dir=DIR] [arg=ARG]... [ro=PATH]... [env.KEY=VALUE]...
//   name=NAME url=http://HOST:PORT/PATH      a bot already serving HTTP somewhere (no process)
// cmd is split into words like a shell would (quotes and backslashes), but no shell runs it.
#include <filesystem>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace arb {

struct BotSpec {
    std::string name;
    std::string command;             // as written, for records and the store
    std::vector<std::string> argv;   // command split into words, then the arg= values
    std::filesystem::path dir;       // working directory; empty = the arbiter's
    std::map<std::string, std::string> env;  // added to the bot's environment
    std::vector<std::filesystem::path> read_only;  // more paths a confined bot sees (read-only)
    std::string url;                 // a running HTTP bot instead of a command (then no argv)

    friend bool operator==(const BotSpec&, const BotSpec&) = default;
};

// Splits a command line into words: whitespace separates, '...' and "..." quote, \ escapes.
// Throws UserError on an unterminated quote.
std::vector<std::string> split_command_line(std::string_view line);

// Parses "name=... cmd=... dir=... arg=... env.K=V". Throws UserError naming the bad part.
BotSpec parse_bot_spec(std::string_view spec);

// Quotes a word so split_command_line gives it back unchanged.
std::string quote_word(std::string_view word);

// Renders a spec back to the text parse_bot_spec reads.
std::string to_spec_string(const BotSpec& bot);

// The executable the bot's argv[0] names: a path with '/' is taken relative to dir,
// a bare name is looked up in PATH. Throws UserError ("bot 'x': executable 'y' not found")
// when it does not exist or is not executable.
std::filesystem::path resolve_executable(const BotSpec& bot);

// The first executable file named `program` in the folders of PATH, if any.
std::optional<std::filesystem::path> find_in_path(const std::string& program);

// Checks every bot before any match starts: names unique and non-empty, executables present,
// dir exists. Throws UserError naming the first problem.
void check_bots(const std::vector<BotSpec>& bots);

}  // namespace arb

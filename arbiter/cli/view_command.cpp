// arbiter view: one match as a self-contained HTML page, with a replay viewer for its game.
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "arbiter/cli/commands.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/user_error.hpp"

extern char** environ;

namespace arb::cli {
namespace {

namespace fs = std::filesystem;

struct ViewArgs {
    std::string input;
    std::string out;
    bool open = false;
};

// The desktop's browser through xdg-open, when the machine has one; false when it has none.
bool open_in_browser(const fs::path& page) {
    const std::string file = fs::absolute(page).string();
    char* argv[] = {const_cast<char*>("xdg-open"), const_cast<char*>(file.c_str()), nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, argv, environ) != 0) return false;
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void run_view(const ViewArgs& args) {
    const view::MatchView match = view::load_match_view(args.input);
    const std::string page = view::viewer_page(match);
    const fs::path out = args.out.empty() ? view::default_page_path(args.input) : fs::path(args.out);
    write_file_atomically(out, page);
    std::cout << out.string() << "\n";
    if (args.open && !open_in_browser(out))
        std::cerr << "arbiter view: no desktop browser could be started (xdg-open); open " << out.string()
                  << " yourself\n";
}

}  // namespace

void add_view_command(CLI::App& app) {
    auto args = std::make_shared<ViewArgs>();
    CLI::App* cmd = app.add_subcommand(
        "view", "Write one match as a self-contained HTML replay viewer (offline, from file://) and print its path");
    cmd->add_option("match", args->input,
                    "A match folder (tournament), a match record (any game), or a replay/log, ours or the original "
                    "engine's (" + view::replay_kinds() + ")")
        ->required();
    cmd->add_option("--out", args->out, "The page to write (default: viewer.html in a match folder or beside its record.json, else NAME.html here)");
    cmd->add_flag("--open", args->open, "Open the page in the desktop's browser (xdg-open) where there is one");
    cmd->footer("Example:\n  arbiter view results-files/demo/r0-g1-s2 --open");
    cmd->callback([args] { run_view(*args); });
}

}  // namespace arb::cli

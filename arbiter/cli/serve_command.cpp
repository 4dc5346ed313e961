// arbiter serve: tournaments and ladders shown live over HTTP, from their results files.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/cli/commands.hpp"
#include "arbiter/serve/http_server.hpp"
#include "core/user_error.hpp"

namespace arb::cli {

namespace {

struct ServeArgs : serve::ServeOptions {
    int tick_ms = 1000;
};

}  // namespace

void add_serve_command(CLI::App& app) {
    auto args = std::make_shared<ServeArgs>();
    CLI::App* cmd = app.add_subcommand(
        "serve", "Show tournaments and ladders live in a browser, from their databases (read-only)");
    cmd->add_option("--db", args->dbs, "A results database (repeat for several; all show on one page)")->required();
    cmd->add_option("--port", args->port, "The TCP port (0: any free one, printed)")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    cmd->add_option("--address", args->address,
                    "The address to listen on; 127.0.0.1 keeps it to this machine, 0.0.0.0 shows it to anyone who can "
                    "reach the machine (read-only)")
        ->capture_default_str();
    cmd->add_option("--delay", args->delay_steps, "Show running matches this many steps behind")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    cmd->add_option("--tick-ms", args->tick_ms, "How often the databases and running matches are looked at, in ms")
        ->check(CLI::Range(50, 60000))
        ->capture_default_str();
    cmd->add_option("--nice", args->nice,
                    "How far below the tournaments the server runs (0-19; above 0 also the batch scheduling policy, "
                    "so that its updates never preempt a match); 0 runs it as any program")
        ->check(CLI::Range(0, 19))
        ->capture_default_str();
    cmd->footer("Example:\n  arbiter serve --db results.sqlite --db ladder.sqlite   # then open http://127.0.0.1:8080/");
    cmd->callback([args] {
        serve::ServeOptions options = *args;
        options.tick_s = args->tick_ms / 1000.0;
        options.listening = [](const std::string& address, int port) {
            std::cout << "arbiter serve: http://" << (address.find(':') != std::string::npos ? "[" + address + "]" : address)
                      << ":" << port << "/ (Ctrl-C stops it)" << std::endl;
        };
        serve::run_server(options);
    });
}

}  // namespace arb::cli

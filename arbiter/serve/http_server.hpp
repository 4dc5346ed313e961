#pragma once
// `arbiter serve`: an HTTP server (Boost.Beast on one Asio thread) that shows tournaments and
// ladders live from their results files. The page follows them over server-sent events: one
// stream per page, one state computed per tick for every client and sent only when it changed.
// Every request is read with bounded headers and no body; paths are matched against the routes
// and never mapped to files, so no path reaches outside what is served.
#include <functional>
#include <string>
#include <vector>

namespace arb::serve {

struct ServeOptions {
    std::vector<std::string> dbs;
    std::string address = "127.0.0.1";
    int port = 8080;                 // 0: any free port
    int delay_steps = 0;             // running matches are shown this many steps behind
    double tick_s = 1.0;             // how often the files are looked at
    std::size_t max_clients = 4096;  // connections over this are answered 503 and closed
    // How far below the tournaments it shows the server runs (nice, and SCHED_BATCH when above
    // 0): its wake-ups then never preempt a match's bot or referee. 0 runs it as any program.
    int nice = 10;
    std::function<void(const std::string& address, int port)> listening;  // once the port is open
};

// Serves until SIGINT or SIGTERM; returns 0 then. UserError when the address cannot be bound.
int run_server(const ServeOptions& options);

}  // namespace arb::serve

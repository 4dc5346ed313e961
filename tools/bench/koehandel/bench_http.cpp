// Round trip of one request through the ProcessTable, per channel (docs/benchmarks.md,
// "Koehandel"). Usage:
//   bench_koehandel_http stdio|http "COMMAND LINE" ROUNDS [LOG_DIR]
// stdio: the bot echoes lines on its stdin/stdout; http: the bot serves GET on $ARBITER_PORT.
// The request is bench_request.hpp's. LOG_DIR: the bot's stderr goes to LOG_DIR/p0.stderr.log
// (echo_bot writes there what it served). Prints one line: channel=... rounds=... median_us=... p90_us=...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/table/process_table.hpp"
#include "bench_request.hpp"

using namespace arb;
using SteadyClock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: bench_koehandel_http stdio|http \"COMMAND\" ROUNDS [LOG_DIR]\n");
        return 2;
    }
    const std::string mode = argv[1];
    const int rounds = std::atoi(argv[3]);
    SeatLaunch launch;
    launch.info = SeatInfo{0, "bench", "p0"};
    launch.bot = parse_bot_spec(std::string("name=bench cmd=") + quote_word(argv[2]));
    launch.time.per_request = std::chrono::seconds(5);
    launch.channel = mode == "http" ? ChannelKind::http_server : ChannelKind::stdio;
    std::vector<SeatLaunch> seats{launch};
    TableOptions options;
    if (argc == 5) options.log_dir = argv[4];
    auto table = ProcessTable::launch(std::move(seats), options);
    const std::string query(koehandel_bench::kQuery);
    const std::string request = mode == "http" ? "/" + query : query + "\n";
    // The first request waits for the bot to listen: not measured.
    if (!table->ask(0, request, one_line_framer()).ok()) {
        std::fprintf(stderr, "first request failed\n");
        return 1;
    }
    std::vector<double> samples;
    for (int i = 0; i < rounds; ++i) {
        const auto start = SteadyClock::now();
        const Reply reply = table->ask(0, request, one_line_framer());
        samples.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count());
        if (!reply.ok()) {
            std::fprintf(stderr, "reply %d failed: %s\n", i, to_string(reply.status));
            return 1;
        }
    }
    std::sort(samples.begin(), samples.end());
    std::printf("channel=%s rounds=%d median_us=%.1f p90_us=%.1f\n", mode.c_str(), rounds, samples[samples.size() / 2],
                samples[samples.size() * 9 / 10]);
    table->close();
    return 0;
}

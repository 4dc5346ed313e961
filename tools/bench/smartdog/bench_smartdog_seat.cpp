// Per-turn cost of the TCP seat (shared port, token join) against the stdio pipe seat: one
// smart-dog-sized turn (a state of 8 lines, a reply of 2 lines up to `end`) asked N times of the
// same peer program over each channel, in alternating blocks. Run by hand; see
// docs/benchmarks/smartdog.md.
//   bench_smartdog_seat PEER TURNS RUNS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/process_table.hpp"

using namespace arb;

namespace {

double per_turn_us(const std::string& peer, ChannelKind kind, int turns) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, "peer", "p1"};
    launch.bot = parse_bot_spec("name=peer cmd=" + quote_word(peer));
    if (kind == ChannelKind::tcp_client) launch.bot.env["ARBITER_TOKEN"] = "bench-token";
    launch.channel = kind;
    launch.time.per_request = Millis(5000);
    std::vector<SeatLaunch> seats{launch};
    TableOptions options;
    options.quit_text = "quit\n";
    auto table = ProcessTable::launch(std::move(seats), options);
    if (kind == ChannelKind::tcp_client && !table->ask(0, "", one_line_framer())) return -1;  // the join
    std::string state = "state  \"turn\":1\n";
    for (int i = 0; i < 6; ++i) state += "obj  \"type\":\"Sheep\",\"x\":12,\"y\":7,\"action\":\"standBy\",\"direction\":\"down\"\n";
    state += "turn\n";
    for (int i = 0; i < 200; ++i) table->ask(0, state, terminator_framer("end"));  // warm up
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < turns; ++i) {
        if (!table->ask(0, state, terminator_framer("end"))) return -1;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    table->close();
    return s / turns * 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_smartdog_seat PEER TURNS RUNS\n");
        return 2;
    }
    const std::string peer = argv[1];
    const int turns = std::atoi(argv[2]), runs = std::atoi(argv[3]);
    std::vector<double> pipe, tcp;
    for (int r = 0; r < runs; ++r) {
        pipe.push_back(per_turn_us(peer, ChannelKind::stdio, turns));
        tcp.push_back(per_turn_us(peer, ChannelKind::tcp_client, turns));
    }
    const double p = median(pipe), t = median(tcp);
    std::printf("per turn (median of %d runs of %d turns): pipe %.2f us, tcp %.2f us, tcp overhead %+.2f us (%+.1f %%)\n",
                runs, turns, p, t, t - p, (t - p) / p * 100);
    return 0;
}

// Per-turn cost of the TCP seat (shared port, token join) against the stdio pipe seat: one
// smart-dog-sized turn (a state of 8 lines, a reply of 2 lines up to `end`) asked of the same
// peer program over each channel. Per run both seats are started once, then asked in
// alternating blocks of 250 turns, so both see the same moments of the machine's load; every
// turn is timed and the medians of the turns are printed per run and over all runs, with the
// ratio tcp / pipe. The sandbox is the default one (ARBITER_SANDBOX=none turns it off).
// Run by tools/bench/smartdog/seat_vs_pipe.sh; see docs/benchmarks/smartdog.md.
//   bench_smartdog_seat PEER TURNS RUNS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/table/process_table.hpp"

using namespace arb;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr int kBlock = 250;

std::unique_ptr<ProcessTable> start(const std::string& peer, ChannelKind kind) {
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
    if (kind == ChannelKind::tcp_client && !table->ask(0, "", one_line_framer())) return nullptr;  // the join
    return table;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Asks `turns` turns, appending each turn's microseconds; false when a reply failed.
bool ask_turns(ProcessTable& table, const std::string& state, int turns, std::vector<double>& samples) {
    for (int i = 0; i < turns; ++i) {
        const auto start = SteadyClock::now();
        if (!table.ask(0, state, terminator_framer("end"))) return false;
        samples.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count());
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_smartdog_seat PEER TURNS RUNS\n");
        return 2;
    }
    const std::string peer = argv[1];
    const int turns = std::atoi(argv[2]), runs = std::atoi(argv[3]);
    std::string state = "state  \"turn\":1\n";
    for (int i = 0; i < 6; ++i) state += "obj  \"type\":\"Sheep\",\"x\":12,\"y\":7,\"action\":\"standBy\",\"direction\":\"down\"\n";
    state += "turn\n";
    std::vector<double> all_pipe, all_tcp;
    for (int r = 1; r <= runs; ++r) {
        auto pipe = start(peer, ChannelKind::stdio);
        auto tcp = start(peer, ChannelKind::tcp_client);
        std::vector<double> pipe_samples, tcp_samples, warm_up;
        if (!tcp || !ask_turns(*pipe, state, 200, warm_up) || !ask_turns(*tcp, state, 200, warm_up)) {
            std::fprintf(stderr, "a seat failed to answer\n");
            return 1;
        }
        for (int done = 0; done < turns; done += kBlock) {
            const int block = std::min(kBlock, turns - done);
            if (!ask_turns(*pipe, state, block, pipe_samples) || !ask_turns(*tcp, state, block, tcp_samples)) {
                std::fprintf(stderr, "a seat failed to answer\n");
                return 1;
            }
        }
        pipe->close();
        tcp->close();
        const double p = median(pipe_samples), t = median(tcp_samples);
        std::printf("run %d: per turn (median of %d turns): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n", r, turns, p, t,
                    t / p);
        all_pipe.insert(all_pipe.end(), pipe_samples.begin(), pipe_samples.end());
        all_tcp.insert(all_tcp.end(), tcp_samples.begin(), tcp_samples.end());
    }
    const double p = median(all_pipe), t = median(all_tcp);
    std::printf("all runs: per turn (median of %zu turns each): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n",
                all_pipe.size(), p, t, t / p);
    return 0;
}

// Per-turn cost of the TCP seat (shared port, token join) against the stdio pipe seat: one
// smart-dog-sized turn (a state of 8 lines, a reply of 2 lines up to `end`) asked of the same
// peer program over each channel. Per run both seats are started once, then asked in
// alternating blocks of 250 turns, so both see the same moments of the machine's load; every
// turn is timed and the medians of the turns are printed per run and over all runs, with the
// ratio tcp / pipe. The sandbox is the default one (ARBITER_SANDBOX=none turns it off).
// The turn's texts are seat_turn.hpp's, shared with bench_raw_channels; per run the peer's own
// count of the bytes it received and sent per turn (its stderr, through the seat's log) is
// printed for each seat. Besides ask() the loop does what bench_raw_channels does per turn: a
// fresh terminator framer; the state is built once. Run by tools/bench/network_seats.sh; see
// docs/benchmarks/smartdog.md.
//   bench_smartdog_seat PEER TURNS RUNS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/table/process_table.hpp"
#include "seat_turn.hpp"

using namespace arb;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr int kBlock = 250;

// The seat's stderr (the peer's byte counts) goes to LOG_DIR/<label>.stderr.log.
std::unique_ptr<ProcessTable> start(const std::string& peer, ChannelKind kind, const std::filesystem::path& log_dir) {
    SeatLaunch launch;
    launch.info = SeatInfo{0, "peer", kind == ChannelKind::tcp_client ? "tcp" : "pipe"};
    launch.bot = parse_bot_spec("name=peer cmd=" + quote_word(peer));
    if (kind == ChannelKind::tcp_client) launch.bot.env["ARBITER_TOKEN"] = smartdog_bench::kToken;
    launch.channel = kind;
    launch.time.per_request = Millis(5000);
    std::vector<SeatLaunch> seats{launch};
    TableOptions options;
    options.quit_text = "quit\n";
    options.log_dir = log_dir;
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
        if (!table.ask(0, state, terminator_framer(smartdog_bench::kTerminator))) return false;
        samples.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count());
    }
    return true;
}

// What the peer of a closed seat counted: "received per turn B bytes, sent per turn S bytes".
std::string peer_counts(const std::filesystem::path& log) {
    std::ifstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find("received per turn");
        if (line.starts_with("peer: ") && at != std::string::npos) return line.substr(at);
    }
    return "no count from the peer";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_smartdog_seat PEER TURNS RUNS\n");
        return 2;
    }
    const std::string peer = argv[1];
    const int turns = std::atoi(argv[2]), runs = std::atoi(argv[3]);
    const std::string state = smartdog_bench::state_text();
    char log_template[] = "/tmp/bench-smartdog-seat.XXXXXX";
    if (!::mkdtemp(log_template)) return 1;
    const std::filesystem::path log_dir = log_template;
    std::vector<double> all_pipe, all_tcp;
    for (int r = 1; r <= runs; ++r) {
        auto pipe = start(peer, ChannelKind::stdio, log_dir);
        auto tcp = start(peer, ChannelKind::tcp_client, log_dir);
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
        std::printf("run %d: bytes at the peer: pipe seat %s; tcp seat %s\n", r, peer_counts(log_dir / "pipe.stderr.log").c_str(),
                    peer_counts(log_dir / "tcp.stderr.log").c_str());
        all_pipe.insert(all_pipe.end(), pipe_samples.begin(), pipe_samples.end());
        all_tcp.insert(all_tcp.end(), tcp_samples.begin(), tcp_samples.end());
    }
    const double p = median(all_pipe), t = median(all_tcp);
    std::printf("all runs: per turn (median of %zu turns each): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n",
                all_pipe.size(), p, t, t / p);
    std::filesystem::remove_all(log_dir);
    return 0;
}

// The floor under bench_smartdog_seat: the same smart-dog turn with the same peer program
// (smartdog_echo_peer), no arbiter, over a pipe pair (the peer's stdin and stdout) and over a
// loopback TCP connection (the peer connects to ARBITER_PORT and joins, TCP_NODELAY on both
// ends), in alternating blocks of 250 turns per run, with blocking write and read.
//
// Same bytes: the state and the reply are seat_turn.hpp's, sent and answered by the same peer,
// which prints its own count of them per turn (as it does under the seat benchmark); this side
// also counts what it wrote and read. Same per-turn work besides the channel: the state is built
// once, as in bench_smartdog_seat; each turn makes a fresh terminator_framer, cuts what it reads
// into lines with the arbiter's LineSplitter and puts them through that framer into a Reply, as
// the seat does with the same code. What the raw side does not do is the seat's own machinery:
// the event loop, the exchange's clock and deadline, the UTF-8 check and the transcript hooks.
// No sandbox: the peer runs as a plain child (the seat's figures are with the default sandbox
// unless ARBITER_SANDBOX=none).
//   bench_raw_channels PEER TURNS RUNS
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "../raw_timing.h"
#include "core/channel/line_splitter.hpp"
#include "core/seat.hpp"
#include "seat_turn.hpp"

namespace {

constexpr int kBlock = 250;

struct Channel {
    int to = -1, from = -1;
    pid_t pid = -1;
    std::string log;  // the peer's stderr
    arb::LineSplitter lines{1 << 20};
    std::vector<char> buffer = std::vector<char>(64 * 1024);
    long written = 0, read = 0;  // bytes of the measured turns and the warm-up
};

[[noreturn]] void fail(const char* what) {
    std::perror(what);
    std::exit(1);
}

// Starts the peer with its stdin and stdout on `in` and `out` (or left alone when -1) and its
// stderr into `log`; `port` > 0: it connects there.
pid_t spawn(const std::string& peer, int in, int out, const std::string& log, int port) {
    const pid_t pid = ::fork();
    if (pid < 0) fail("fork");
    if (pid > 0) return pid;
    if (in >= 0) ::dup2(in, 0);
    if (out >= 0) ::dup2(out, 1);
    const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) ::dup2(err, 2);
    if (port > 0) {
        ::setenv("ARBITER_PORT", std::to_string(port).c_str(), 1);
        ::setenv("ARBITER_TOKEN", smartdog_bench::kToken, 1);
    } else {
        ::unsetenv("ARBITER_PORT");
    }
    for (int fd = 3; fd < 1024; ++fd) ::close(fd);
    ::execl(peer.c_str(), peer.c_str(), static_cast<char*>(nullptr));
    _exit(127);
}

void start_pipe(Channel& c, const std::string& peer) {
    int to[2], from[2];
    if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) fail("pipe");
    c.pid = spawn(peer, to[0], from[1], c.log, 0);
    ::close(to[0]);
    ::close(from[1]);
    c.to = to[1];
    c.from = from[0];
}

void start_tcp(Channel& c, const std::string& peer) {
    const int one = 1;
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof at;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 || ::listen(listener, 1) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&at), &size) != 0)
        fail("listen");
    c.pid = spawn(peer, -1, -1, c.log, ntohs(at.sin_port));
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    ::close(listener);
    if (fd < 0) fail("accept");
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c.to = c.from = fd;
    // The join line: `join TOKEN`, then nothing until the first state.
    std::string join;
    while (join.empty() || join.back() != '\n') {
        char ch;
        if (::read(fd, &ch, 1) != 1) fail("join");
        join += ch;
    }
    if (join != std::string("join ") + smartdog_bench::kToken + "\n") {
        std::fprintf(stderr, "unexpected join line: %s", join.c_str());
        std::exit(1);
    }
}

// Closes the channel (the peer sees end of input, prints its counts and exits) and returns
// what the peer counted: "received per turn B bytes, sent per turn S bytes".
std::string stop(Channel& c) {
    ::close(c.to);
    if (c.from != c.to) ::close(c.from);
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    std::ifstream in(c.log);
    std::string line;
    std::string counts = "no count from the peer";
    while (std::getline(in, line)) {
        const auto at = line.find("received per turn");
        if (line.starts_with("peer: ") && at != std::string::npos) counts = line.substr(at);
    }
    std::remove(c.log.c_str());
    return counts;
}

// One turn: the state out, the reply in through a fresh framer, as bench_smartdog_seat asks it.
double turn(Channel& c, const std::string& state) {
    const double start = now_us();
    arb::ReplyFramer framer = arb::terminator_framer(smartdog_bench::kTerminator);
    arb::Reply reply;
    for (std::size_t sent = 0; sent < state.size();) {
        const ssize_t n = ::write(c.to, state.data() + sent, state.size() - sent);
        if (n <= 0) fail("write");
        sent += static_cast<std::size_t>(n);
    }
    c.written += static_cast<long>(state.size());
    std::string line;
    for (bool done = false; !done;) {
        switch (c.lines.next(line)) {
            case arb::LineSplitter::Next::line:
                switch (framer(line)) {
                    case arb::Frame::keep: reply.lines.push_back(std::move(line)); break;
                    case arb::Frame::skip: break;
                    case arb::Frame::end_keep: reply.lines.push_back(std::move(line)); done = true; break;
                    case arb::Frame::end_skip: done = true; break;
                }
                break;
            case arb::LineSplitter::Next::need_more: {
                const ssize_t n = ::read(c.from, c.buffer.data(), c.buffer.size());
                if (n < 0 && errno == EINTR) break;
                if (n <= 0) fail("read");
                c.read += n;
                c.lines.append(std::string_view(c.buffer.data(), static_cast<std::size_t>(n)));
                break;
            }
            case arb::LineSplitter::Next::overflow: std::fprintf(stderr, "line too long\n"); std::exit(1);
        }
    }
    return now_us() - start;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_raw_channels PEER TURNS RUNS\n");
        return 2;
    }
    const std::string peer = argv[1];
    const int turns = std::atoi(argv[2]), runs = std::atoi(argv[3]);
    if (turns < 1 || runs < 1) return 2;
    ::signal(SIGPIPE, SIG_IGN);
    const std::string state = smartdog_bench::state_text();
    const std::string logs = "/tmp/bench-raw-channels." + std::to_string(::getpid());
    std::vector<double> pipe_all, tcp_all, pipe_run(static_cast<std::size_t>(turns)), tcp_run(static_cast<std::size_t>(turns));
    for (int r = 1; r <= runs; ++r) {
        Channel p, t;
        p.log = logs + ".pipe.log";
        t.log = logs + ".tcp.log";
        start_pipe(p, peer);
        start_tcp(t, peer);
        for (int i = 0; i < 200; ++i) turn(p, state), turn(t, state);  // warm up
        for (int done = 0; done < turns; done += kBlock) {
            const int block = std::min(kBlock, turns - done);
            for (int i = 0; i < block; ++i) pipe_run[static_cast<std::size_t>(done + i)] = turn(p, state);
            for (int i = 0; i < block; ++i) tcp_run[static_cast<std::size_t>(done + i)] = turn(t, state);
        }
        const long all_turns = 200 + turns;
        const long p_written = p.written / all_turns, p_read = p.read / all_turns;
        const long t_written = t.written / all_turns, t_read = t.read / all_turns;
        const std::string p_counts = stop(p), t_counts = stop(t);
        pipe_all.insert(pipe_all.end(), pipe_run.begin(), pipe_run.end());
        tcp_all.insert(tcp_all.end(), tcp_run.begin(), tcp_run.end());
        const double pm = median(pipe_run.data(), turns), tm = median(tcp_run.data(), turns);
        std::printf("raw run %d: per turn (median of %d turns): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n", r, turns, pm, tm,
                    tm / pm);
        std::printf("raw run %d: bytes at the peer: pipe %s; tcp %s\n", r, p_counts.c_str(), t_counts.c_str());
        std::printf("raw run %d: bytes on this side per turn: pipe %ld written, %ld read; tcp %ld written, %ld read\n", r,
                    p_written, p_read, t_written, t_read);
    }
    const int total = static_cast<int>(pipe_all.size());
    const double pm = median(pipe_all.data(), total), tm = median(tcp_all.data(), total);
    std::printf("raw all runs: per turn (median of %d turns each): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n", total, pm, tm,
                tm / pm);
    return 0;
}

// The floor under the HTTP seat: the same request, kept alive on one connection, from a plain
// client with blocking sockets to the same bot, no arbiter. It starts the bot as the seat does
// (ARBITER_PORT = a free loopback port, its stderr left to ours), connects (retrying every 10 ms
// while the bot is not listening yet), sets TCP_NODELAY, and asks ROUNDS requests after a first
// one that is not measured, as bench_koehandel_http does.
//
// The request is the bytes the arbiter's HTTP channel writes (core/channel/channel_http.cpp): "GET /<query> HTTP/1.1", Host 127.0.0.1:PORT, User-Agent arbiter,
// and no Connection field (keep-alive is HTTP/1.1's default). echo_bot prints the first request
// it served and the sizes, so a run shows both clients sent the same. Per request besides the
// socket calls: the response head is searched for its end and Content-Length, and the body goes
// through the core's LineSplitter and a fresh one_line_framer into a Reply, as the seat does
// with it. What the raw side does not do is the seat's own machinery: the event loop, Beast's
// parser, the clock and deadline, the transcript hooks.
// Prints one line like bench_koehandel_http: channel=raw-http rounds=... median_us=... p90_us=...
//   bench_koehandel_raw_http "BOT COMMAND" ROUNDS
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench_request.hpp"
#include "core/channel/line_splitter.hpp"
#include "core/seat.hpp"

namespace {

using SteadyClock = std::chrono::steady_clock;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "bench_koehandel_raw_http: %s\n", what);
    std::exit(1);
}

// A free loopback port, as the HTTP channel picks one for its bot.
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof at;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&at), &size) != 0)
        fail("no free port");
    ::close(fd);
    return ntohs(at.sin_port);
}

int connect_to(int port) {
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(port));
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const auto until = SteadyClock::now() + std::chrono::seconds(5);
    for (;;) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0) {
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            return fd;
        }
        ::close(fd);
        if (SteadyClock::now() > until) fail("the bot does not listen");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

struct Connection {
    int fd = -1;
    std::string in;  // received and not yet consumed
    std::vector<char> buffer = std::vector<char>(64 * 1024);
    arb::LineSplitter lines{1 << 20};

    void receive() {
        for (;;) {
            const ssize_t n = ::read(fd, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) fail("the connection closed before a complete response");
            in.append(buffer.data(), static_cast<std::size_t>(n));
            return;
        }
    }
};

// The value of Content-Length in a response head, or -1.
long content_length(std::string_view head) {
    static constexpr std::string_view kName = "content-length:";
    for (std::size_t at = head.find("\r\n"); at != std::string_view::npos && at + 2 < head.size(); at = head.find("\r\n", at + 2)) {
        const std::string_view field = head.substr(at + 2, kName.size());
        if (field.size() == kName.size() &&
            std::equal(field.begin(), field.end(), kName.begin(), [](char x, char y) { return std::tolower(x) == y; })) {
            return std::strtol(head.data() + at + 2 + kName.size(), nullptr, 10);
        }
    }
    return -1;
}

// One request: written, its response read in full, its body framed as the seat frames it.
arb::Reply ask(Connection& c, const std::string& request) {
    arb::ReplyFramer framer = arb::one_line_framer();
    arb::Reply reply;
    for (std::size_t sent = 0; sent < request.size();) {
        const ssize_t n = ::write(c.fd, request.data() + sent, request.size() - sent);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write failed");
        sent += static_cast<std::size_t>(n);
    }
    std::size_t head_end;
    while ((head_end = c.in.find("\r\n\r\n")) == std::string::npos) c.receive();
    const std::string_view head(c.in.data(), head_end + 4);
    if (!head.starts_with("HTTP/1.1 200 ")) fail("not a 200 response");
    const long length = content_length(head);
    if (length < 0) fail("no Content-Length");
    const std::size_t total = head.size() + static_cast<std::size_t>(length);
    while (c.in.size() < total) c.receive();
    const std::string_view body = std::string_view(c.in).substr(head_end + 4, static_cast<std::size_t>(length));
    c.lines.clear();
    c.lines.append(body);
    if (!body.empty() && body.back() != '\n') c.lines.append("\n");
    std::string line;
    for (bool done = false; !done && c.lines.next(line) == arb::LineSplitter::Next::line;) {
        switch (framer(line)) {
            case arb::Frame::keep: reply.lines.push_back(std::move(line)); break;
            case arb::Frame::skip: break;
            case arb::Frame::end_keep: reply.lines.push_back(std::move(line)); done = true; break;
            case arb::Frame::end_skip: done = true; break;
        }
    }
    c.in.erase(0, total);
    return reply;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_koehandel_raw_http \"BOT COMMAND\" ROUNDS\n");
        return 2;
    }
    const int rounds = std::atoi(argv[2]);
    if (rounds < 1) return 2;
    ::signal(SIGPIPE, SIG_IGN);
    const int port = free_port();
    const pid_t bot = ::fork();
    if (bot < 0) fail("fork failed");
    if (bot == 0) {
        ::setenv("ARBITER_HOST", "127.0.0.1", 1);
        ::setenv("ARBITER_PORT", std::to_string(port).c_str(), 1);
        ::setenv("ARBITER_URL", ("http://127.0.0.1:" + std::to_string(port) + "/").c_str(), 1);
        ::execl("/bin/sh", "sh", "-c", (std::string("exec ") + argv[1]).c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    Connection c;
    c.fd = connect_to(port);
    const std::string request = "GET /" + std::string(koehandel_bench::kQuery) + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                                std::to_string(port) + "\r\nUser-Agent: arbiter\r\n\r\n";
    if (ask(c, request).lines.empty()) fail("the first reply has no line");  // not measured, as in bench_koehandel_http
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(rounds));
    for (int i = 0; i < rounds; ++i) {
        const auto start = SteadyClock::now();
        const arb::Reply reply = ask(c, request);
        samples.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count());
        if (reply.lines.empty()) fail("a reply has no line");
    }
    ::close(c.fd);
    ::kill(bot, SIGTERM);
    ::waitpid(bot, nullptr, 0);
    std::sort(samples.begin(), samples.end());
    std::printf("channel=raw-http rounds=%d median_us=%.1f p90_us=%.1f\n", rounds, samples[samples.size() / 2],
                samples[samples.size() * 9 / 10]);
    return 0;
}

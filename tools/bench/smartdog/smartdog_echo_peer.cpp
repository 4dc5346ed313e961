// The smallest smart-dog-like player, for the seat benchmarks: on every `turn` line it answers
// `do 1 bark` and `end`. Over TCP (ARBITER_PORT set) it connects and joins with ARBITER_TOKEN;
// otherwise it talks on stdin/stdout. When its input ends (or on `quit`) it writes to stderr
// what it received and sent per turn, counted on its side of the channel, so that the seat and
// the raw benchmark can show that both exchange the same bytes:
//   peer: turns N, received per turn B bytes, sent per turn S bytes
// (received: the bytes up to each `turn` line; the join and quit lines are not counted).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "seat_turn.hpp"

namespace {

long turns = 0, received = 0, sent = 0;

int report(int code) {
    if (turns > 0) {
        std::fprintf(stderr, "peer: turns %ld, received per turn %ld bytes, sent per turn %ld bytes%s\n", turns,
                     received / turns, sent / turns, received % turns || sent % turns ? " (turns differ)" : "");
    }
    return code;
}

}  // namespace

int main() {
    int in_fd = 0, out_fd = 1;
    if (const char* port = std::getenv("ARBITER_PORT")) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(std::atoi(port)));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return 1;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        in_fd = out_fd = fd;
        const char* token = std::getenv("ARBITER_TOKEN");
        const std::string join = std::string("join ") + (token ? token : "") + "\n";
        if (::write(fd, join.data(), join.size()) < 0) return 1;
    }
    FILE* in = ::fdopen(in_fd, "r");
    char line[1 << 16];
    const std::string_view reply = smartdog_bench::kReply;
    long pending = 0;  // bytes of the state being received
    while (std::fgets(line, sizeof line, in)) {
        if (std::strncmp(line, "quit", 4) == 0) return report(0);
        pending += static_cast<long>(std::strlen(line));
        if (std::strncmp(line, "turn", 4) == 0) {
            if (::write(out_fd, reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) return report(1);
            ++turns;
            received += pending;
            sent += static_cast<long>(reply.size());
            pending = 0;
        }
    }
    return report(0);
}

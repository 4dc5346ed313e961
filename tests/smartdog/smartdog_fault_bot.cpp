// A misbehaving smart-dog player for the referee's fault tests. One flag picks the fault:
//   --no-connect     never connects (sleeps)
//   --no-join        connects, never says anything
//   --bad-token      joins with a token it was not given
//   --join-twice     joins, then sends `join` again every turn (and plays nothing)
//   --reuse-token    joins, then joins again with the same token on a second connection; it
//                    plays on (sending `end`) only if that one is refused with an `error` line
//   --junk           answers every turn with junk lines, then `end`
//   --flood          answers every turn with endless `do` lines and no `end`
//   --stop-at N      plays `end` until turn N, then stops answering (stays connected)
//   --disconnect-at N  plays `end` until turn N, then closes the connection and exits
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tools/bots/smartdog/smartdog_bot.hpp"

using smartdog_bot::connect_to;
using smartdog_bot::send_all;

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const int at_turn = argc > 2 ? std::atoi(argv[2]) : 0;
    if (mode == "--no-connect") {
        ::sleep(60);
        return 0;
    }
    const char* host = std::getenv("ARBITER_HOST");
    const char* port = std::getenv("ARBITER_PORT");
    const char* token = std::getenv("ARBITER_TOKEN");
    if (!host || !port || !token) return 2;
    const int fd = connect_to(host, port);
    if (fd < 0) return 1;
    if (mode == "--no-join") {
        ::sleep(60);
        return 0;
    }
    send_all(fd, mode == "--bad-token" ? "join not-my-token\n" : std::string("join ") + token + "\n");
    if (mode == "--reuse-token") {
        const int second = connect_to(host, port);
        if (second < 0) return 1;
        send_all(second, std::string("join ") + token + " #duet\n");
        char reply[256] = {};
        std::size_t got = 0;
        while (got < sizeof reply - 1) {
            const auto n = ::read(second, reply + got, sizeof reply - 1 - got);
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        if (std::strncmp(reply, "error ", 6) != 0) return 3;  // seated twice: exit, and the test sees it
        ::close(second);
    }
    FILE* in = ::fdopen(fd, "r");
    char* buffer = nullptr;
    std::size_t capacity = 0;
    int turn = 0;
    while (::getline(&buffer, &capacity, in) > 0) {
        const std::string line(buffer);
        if (line.starts_with("finished") || line.starts_with("error Unknown token")) break;
        if (!line.starts_with("turn")) continue;
        ++turn;
        if (mode == "--join-twice") {
            send_all(fd, std::string("join ") + token + "\nend\n");
        } else if (mode == "--junk") {
            send_all(fd, "hello\ndo\ndo 1 fly away\ndo 999999 move up\n\x01\x02garbage\nend\n");
        } else if (mode == "--flood") {
            for (int i = 0; i < 1000000; ++i) {
                if (!send_all(fd, "do 1 bark\n")) break;
            }
            ::sleep(60);
        } else if (mode == "--stop-at" && turn >= at_turn) {
            ::sleep(60);
        } else if (mode == "--disconnect-at" && turn >= at_turn) {
            ::close(fd);
            return 0;
        } else {
            send_all(fd, "end\n");
        }
    }
    return 0;
}

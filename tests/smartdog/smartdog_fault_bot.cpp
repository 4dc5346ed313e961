// A misbehaving smart-dog player for the referee's fault tests. It joins as "faulty" (any user
// name seats a connection). One flag picks the fault:
//   --no-connect     never connects (sleeps)
//   --no-join        connects, never says anything
//   --not-join       says `hello` instead of `join`
//   --join-twice     joins, then sends `join` again every turn (and plays nothing)
//   --join-twice-at-once  sends `join` twice in one write, then plays `end` every turn
//   --join-again-soon     joins, sends `join` again in a second write right after, then plays
//                    `end` every turn (the second arrives before or with the first turn's reply)
//   --join-after-end  joins; on turn 1 sends `end` and `join` again in one write, then plays `end`
//   --second-connection  joins, then connects a second time and joins there too; it plays on
//                    (sending `end`) only if that connection is refused, closed or answered `error`
//   --junk           answers every turn with junk lines, then `end`
//   --flood          answers every turn with endless `do` lines and no `end`
//   --stop-at N      plays `end` until turn N, then stops answering (stays connected)
//   --disconnect-at N  plays `end` until turn N, then closes the connection and exits
//   --after-end N    on turn N sends `end` and then two more lines (`do ID bark`, `end`) in the
//                    same write; on turn N+1 it moves its first dog (`do ID move down`), on every
//                    other turn it just ends
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
    if (!host || !port) return 2;
    const int fd = connect_to(host, port);
    if (fd < 0) return 1;
    if (mode == "--no-join") {
        ::sleep(60);
        return 0;
    }
    send_all(fd, mode == "--not-join"             ? "hello\n"
                 : mode == "--join-twice-at-once" ? "join faulty\njoin faulty\n"
                                                  : "join faulty\n");
    if (mode == "--join-again-soon") send_all(fd, "join faulty\n");
    if (mode == "--second-connection") {
        const int second = connect_to(host, port);
        if (second >= 0) {
            send_all(second, "join faulty #duet\n");
            char reply[256] = {};
            std::size_t got = 0;
            while (got < sizeof reply - 1) {
                const auto n = ::read(second, reply + got, sizeof reply - 1 - got);
                if (n <= 0) break;
                got += static_cast<std::size_t>(n);
            }
            if (got > 0 && std::strncmp(reply, "error ", 6) != 0) return 3;  // seated twice: the test sees it
            ::close(second);
        }
    }
    FILE* in = ::fdopen(fd, "r");
    char* buffer = nullptr;
    std::size_t capacity = 0;
    int turn = 0;
    std::string you, dog;  // our player id, and the id of the first own dog seen
    while (::getline(&buffer, &capacity, in) > 0) {
        const std::string line(buffer);
        if (line.starts_with("finished") || line.starts_with("error Expected")) break;
        if (line.starts_with("start ")) {
            const auto at = line.find("\"you\":") + 6;
            you = line.substr(at, line.find(',', at) - at);
        }
        if (line.starts_with("obj ") && dog.empty() && line.find("\"owner\":" + you + ",") != std::string::npos) {
            const auto at = line.find("\"id\":") + 5;
            dog = line.substr(at, line.find(',', at) - at);
        }
        if (!line.starts_with("turn")) continue;
        ++turn;
        if (mode == "--join-twice") {
            send_all(fd, "join faulty\nend\n");
        } else if (mode == "--join-after-end" && turn == 1) {
            send_all(fd, "end\njoin faulty\n");
        } else if (mode == "--after-end" && turn == at_turn) {
            send_all(fd, "end\ndo " + dog + " bark\nend\n");
        } else if (mode == "--after-end" && turn == at_turn + 1) {
            send_all(fd, "do " + dog + " move down\nend\n");
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

#pragma once
// Shared by the smart-dog sample bots: the loopback connection (ARBITER_HOST, ARBITER_PORT,
// ARBITER_TOKEN), the `join`, the message parsing (smartdog.md 9: `cmd` and a JSON object
// without its braces, `:` between keys and values) and the torus geometry. POSIX and the
// standard library only, so a contestant can copy a bot out of the tree.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace smartdog_bot {

struct Obj {
    std::string type;  // "Dog", "Sheep", or "" for an unseen barking dog
    int id = 0, x = 0, y = 0, owner = 0;
    std::string action, direction;
};

struct Game {
    int you = 0, rows = 0, cols = 0, players = 0;
    int x1 = 0, x2 = 0, y1 = 0, y2 = 0;
    int vis_r = 0, bark_r = 0;
    std::vector<std::string> land;  // '.', '#', '^' or a pen owner digit
    int turn = 0;
    std::vector<Obj> objs;

    int wx(int x) const { return ((x % cols) + cols) % cols; }
    int wy(int y) const { return ((y % rows) + rows) % rows; }
    int delta(int from, int to, int size) const {
        int d = ((to - from) % size + size) % size;
        return d > size / 2 ? d - size : d;
    }
    int dist2(int ax, int ay, int bx, int by) const {
        const int dx = delta(ax, bx, cols), dy = delta(ay, by, rows);
        return dx * dx + dy * dy;
    }
    char at(int x, int y) const { return land[static_cast<std::size_t>(wy(y))][static_cast<std::size_t>(wx(x))]; }
    bool walkable(int x, int y) const { return at(x, y) != '#' && at(x, y) != '^'; }
    bool own_pen(int x, int y) const { return at(x, y) == static_cast<char>('0' + you); }
    bool occupied(int x, int y) const {
        for (const auto& o : objs) {
            if (!o.type.empty() && o.x == wx(x) && o.y == wy(y)) return true;
        }
        return false;
    }
};

// "k":v,"k":"v",... into a map (values unquoted); the messages carry no nested objects.
inline std::map<std::string, std::string> fields(const std::string& text) {
    std::map<std::string, std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto colon = text.find(':', i);
        if (colon == std::string::npos) break;
        std::string key = text.substr(i, colon - i);
        auto comma = text.find(',', colon);
        if (comma == std::string::npos) comma = text.size();
        std::string value = text.substr(colon + 1, comma - colon - 1);
        auto unquote = [](std::string s) {
            if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
            return s;
        };
        out[unquote(key)] = unquote(value);
        i = comma + 1;
    }
    return out;
}

inline int num(const std::map<std::string, std::string>& f, const std::string& key) {
    auto it = f.find(key);
    return it == f.end() ? 0 : std::atoi(it->second.c_str());
}

// Writes all of `text`; false when the connection is gone.
inline bool send_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const auto n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// A connection to the arbiter at host:port (numeric IPv4, as ARBITER_HOST gives it), or -1.
inline int connect_to(const char* host, const char* port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(std::atoi(port)));
    if (fd < 0 || ::inet_pton(AF_INET, host, &addr.sin_addr) != 1 ||
        ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0) ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

// Connects, joins, and calls decide(game) once per turn; decide returns the `do` lines.
// Returns the process exit code.
inline int run(const std::function<std::vector<std::string>(const Game&)>& decide) {
    const char* host = std::getenv("ARBITER_HOST");
    const char* port = std::getenv("ARBITER_PORT");
    const char* token = std::getenv("ARBITER_TOKEN");
    if (!host || !port || !token) {
        std::fprintf(stderr, "ARBITER_HOST, ARBITER_PORT and ARBITER_TOKEN must be set\n");
        return 2;
    }
    const int fd = connect_to(host, port);
    if (fd < 0) {
        std::perror("connect");
        return 1;
    }
    FILE* in = ::fdopen(fd, "r");
    auto send = [fd](const std::string& line) { return send_all(fd, line + "\n"); };
    send(std::string("join ") + token);
    Game game;
    char* buffer = nullptr;
    std::size_t capacity = 0;
    ssize_t got = 0;
    while ((got = ::getline(&buffer, &capacity, in)) > 0) {
        std::string line(buffer, static_cast<std::size_t>(got));
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        const auto space = line.find(' ');
        const std::string cmd = line.substr(0, space);
        std::string arg = space == std::string::npos ? "" : line.substr(space + 1);
        while (!arg.empty() && arg.front() == ' ') arg.erase(arg.begin());
        if (cmd == "start") {
            const auto f = fields(arg);
            game.you = num(f, "you");
            game.rows = num(f, "rows");
            game.cols = num(f, "cols");
            game.players = num(f, "players");
            game.x1 = num(f, "x1");
            game.x2 = num(f, "x2");
            game.y1 = num(f, "y1");
            game.y2 = num(f, "y2");
            game.vis_r = num(f, "dogVisibilityR");
            game.bark_r = num(f, "dogBarkingR");
        } else if (cmd == "landscape") {
            game.land.clear();
            std::size_t i = 0;
            while ((i = arg.find('"', i)) != std::string::npos) {
                const auto end = arg.find('"', i + 1);
                if (end == std::string::npos) break;
                game.land.push_back(arg.substr(i + 1, end - i - 1));
                i = end + 1;
            }
        } else if (cmd == "state") {
            game.turn = num(fields(arg), "turn");
            game.objs.clear();
        } else if (cmd == "obj") {
            const auto f = fields(arg);
            Obj o;
            o.type = f.count("type") ? f.at("type") : "";
            o.id = num(f, "id");
            o.x = num(f, "x");
            o.y = num(f, "y");
            o.owner = num(f, "owner");
            o.action = f.count("action") ? f.at("action") : "";
            o.direction = f.count("direction") ? f.at("direction") : "";
            game.objs.push_back(o);
        } else if (cmd == "turn") {
            // One write per turn: separate small writes would wait on Nagle and delayed ACKs.
            std::string reply;
            for (const auto& c : decide(game)) reply += c + "\n";
            if (!send(reply + "end")) break;
        } else if (cmd == "finished" || cmd == "error") {
            std::fprintf(stderr, "%s\n", line.c_str());
            break;
        }
    }
    std::free(buffer);
    std::fclose(in);
    return 0;
}

}  // namespace smartdog_bot

// A C++ HTTP/1.1 echo bot for the channel benchmarks: echo_server.py's protocol without Python's
// own cost. It serves on 127.0.0.1:$ARBITER_PORT and answers every GET with 200, Content-Type
// text/plain, Content-Length and the body echo_server.py gives, "money=t&echo=<query>\n" (the
// query: the target after its first '?', as sent). Plain POSIX sockets, one connection at a time
// (the arbiter and the raw client each keep one), TCP_NODELAY, the whole response in one write.
// Keep-alive as HTTP/1.1 has it (HTTP/1.0: only with "Connection: keep-alive"); a request body
// of Content-Length bytes is read and ignored; a chunked request body, or a head over 64 KiB,
// is answered with an error and the connection closed; other methods get 501.
// On SIGTERM (or SIGINT) it writes to stderr what it served, so a benchmark can show that two
// clients sent the same requests:
//   echo bot: requests N, request head B bytes, response R bytes, first request: GET ...\r\n...
//   bench/koehandel/echo_bot
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

volatile sig_atomic_t stopping = 0;
void on_stop(int) { stopping = 1; }

constexpr std::size_t kMaxHead = 64 * 1024;

struct Stats {
    long requests = 0;
    std::size_t head_min = 0, head_max = 0, response_min = 0, response_max = 0;
    std::string first_head;

    void count(std::size_t head, std::size_t response, std::string_view text) {
        if (requests++ == 0) {
            head_min = head_max = head;
            response_min = response_max = response;
            first_head = text;
        }
        head_min = std::min(head_min, head);
        head_max = std::max(head_max, head);
        response_min = std::min(response_min, response);
        response_max = std::max(response_max, response);
    }
} stats;

std::string range(std::size_t low, std::size_t high) {
    return low == high ? std::to_string(low) : std::to_string(low) + ".." + std::to_string(high);
}

void report() {
    std::string shown;  // the first head with CR and LF written out
    for (const char c : stats.first_head) shown += c == '\r' ? std::string("\\r") : c == '\n' ? std::string("\\n") : std::string(1, c);
    std::fprintf(stderr, "echo bot: requests %ld, request head %s bytes, response %s bytes, first request: %s\n", stats.requests,
                 range(stats.head_min, stats.head_max).c_str(), range(stats.response_min, stats.response_max).c_str(),
                 shown.c_str());
}

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR && !stopping) continue;
        if (n <= 0) return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

bool has_token(std::string_view value, std::string_view token) {  // in a comma-separated list
    while (!value.empty()) {
        const auto comma = value.find(',');
        std::string_view item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (equals_ignoring_case(item, token)) return true;
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

std::string response(int status, const char* reason, std::string_view body, bool keep) {
    std::string text = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Type: text/plain\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n";
    if (!keep) text += "Connection: close\r\n";
    text += "\r\n";
    text += body;
    return text;
}

// Serves one connection until the client closes it, a response closes it, or a stop.
void serve(int fd) {
    std::string in;
    char buffer[16 * 1024];
    while (!stopping) {
        const auto head_end = in.find("\r\n\r\n");
        if (head_end == std::string::npos) {
            if (in.size() > kMaxHead) {
                write_all(fd, response(431, "Request Header Fields Too Large", "", false));
                return;
            }
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            in.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        const std::size_t head_size = head_end + 4;
        const std::string_view head(in.data(), head_size);
        // The request line: METHOD SP TARGET SP VERSION.
        const auto line_end = head.find("\r\n");
        const std::string_view line = head.substr(0, line_end);
        const auto sp1 = line.find(' '), sp2 = line.rfind(' ');
        if (sp1 == std::string_view::npos || sp2 == sp1) {
            write_all(fd, response(400, "Bad Request", "", false));
            return;
        }
        const std::string_view method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1),
                               version = line.substr(sp2 + 1);
        // The header fields this server acts on.
        std::size_t body_size = 0;
        bool chunked = false, close = false, keep_alive = false;
        for (std::size_t at = line_end + 2; at < head_end;) {
            const auto end = head.find("\r\n", at);
            const std::string_view field = head.substr(at, end - at);
            at = end + 2;
            const auto colon = field.find(':');
            if (colon == std::string_view::npos) continue;
            const std::string_view name = field.substr(0, colon);
            std::string_view value = field.substr(colon + 1);
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
            if (equals_ignoring_case(name, "content-length")) body_size = std::strtoul(std::string(value).c_str(), nullptr, 10);
            if (equals_ignoring_case(name, "transfer-encoding")) chunked = true;
            if (equals_ignoring_case(name, "connection")) {
                close = close || has_token(value, "close");
                keep_alive = keep_alive || has_token(value, "keep-alive");
            }
        }
        if (chunked) {
            write_all(fd, response(501, "Not Implemented", "", false));
            return;
        }
        const bool keep = version == "HTTP/1.1" ? !close : keep_alive && !close;
        // A request body is read and ignored.
        while (in.size() < head_size + body_size && !stopping) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            in.append(buffer, static_cast<std::size_t>(n));
        }
        std::string text;
        if (method == "GET") {
            const auto question = target.find('?');
            const std::string_view query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
            text = response(200, "OK", "money=t&echo=" + std::string(query) + "\n", keep);
        } else {
            text = response(501, "Not Implemented", "", keep);
        }
        stats.count(head_size, text.size(), head);
        if (!write_all(fd, text) || !keep) return;
        in.erase(0, head_size + body_size);
    }
}

}  // namespace

int main() {
    const char* port = std::getenv("ARBITER_PORT");
    if (!port) {
        std::fprintf(stderr, "echo bot: ARBITER_PORT is not set\n");
        return 2;
    }
    struct sigaction stop {};
    stop.sa_handler = on_stop;  // no SA_RESTART: a blocked accept or read returns
    ::sigaction(SIGTERM, &stop, nullptr);
    ::sigaction(SIGINT, &stop, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(std::atoi(port)));
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 || ::listen(listener, 16) != 0) {
        std::perror("echo bot: listen");
        return 1;
    }
    while (!stopping) {
        const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;  // EINTR (a stop is seen by the loop) or a connection that went away
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        serve(fd);
        ::close(fd);
    }
    report();
    return 0;
}

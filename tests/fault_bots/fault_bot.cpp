// The fault-bot zoo: one small line bot whose misbehaviour is chosen by flags, in the manner of
// a fake engine with fault flags. Without flags it is a well-behaved echo bot:
// every input line L is answered "echo L"; "quit" makes it exit.
//
//   --pidfile PATH       write "pid <pid>" (and "child <pid>" for forks) to PATH at start
//   --start-delay MS     sleep before reading anything (slow load)
//   --exit-at-start N    exit with code N before reading anything
//   --crash-after N      answer N requests, then abort() on the next
//   --never-answer       read requests, never answer
//   --late MS            sleep MS before every answer
//   --flood              answer every request with an endless line without newline
//   --stderr-bytes N     write N bytes to stderr at start, then echo
//   --garbage            answer with bytes that are not text (NUL, 0xFF, control bytes)
//   --close-stdout       close stdout at start, then keep reading
//   --fork-holder        fork a child that keeps the pipes open and sleeps; the parent exits
//   --ignore-term        ignore SIGTERM, the quit command and end of input
//   --alloc-mib N        on the first request, allocate and touch N MiB, then answer
//   --spin               on the first request, burn CPU forever
//   --crlf               end answers with "\r\n"
//   --lines N            answer with N lines "line i" and then "go"
//   --busy-ms MS         burn MS of CPU time before every answer
//   --tcp                connect to 127.0.0.1:$ARBITER_PORT and talk over the socket instead
//                        of stdin/stdout (the tcp_client channel); all flags above still apply;
//                        with $ARBITER_TOKEN set (a shared port) it first sends "join TOKEN"
//   --http               serve HTTP on 127.0.0.1:$ARBITER_PORT: GET /T is answered with the
//                        body "echo T" (the http_server channel); --late, --never-answer,
//                        --crash-after and --start-delay apply
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
    std::string pidfile;
    int start_delay_ms = 0;
    int exit_at_start = -1;
    int crash_after = -1;
    bool never_answer = false;
    int late_ms = 0;
    bool flood = false;
    long long stderr_bytes = 0;
    bool garbage = false;
    bool close_stdout = false;
    bool fork_holder = false;
    bool ignore_term = false;
    long long alloc_mib = 0;
    bool spin = false;
    bool crlf = false;
    int lines = 0;
    int busy_ms = 0;
    bool tcp = false;
    bool http = false;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "fault_bot: %s needs a value\n", a.c_str());
                std::exit(64);
            }
            return argv[++i];
        };
        if (a == "--pidfile") o.pidfile = value();
        else if (a == "--start-delay") o.start_delay_ms = std::stoi(value());
        else if (a == "--exit-at-start") o.exit_at_start = std::stoi(value());
        else if (a == "--crash-after") o.crash_after = std::stoi(value());
        else if (a == "--never-answer") o.never_answer = true;
        else if (a == "--late") o.late_ms = std::stoi(value());
        else if (a == "--flood") o.flood = true;
        else if (a == "--stderr-bytes") o.stderr_bytes = std::stoll(value());
        else if (a == "--garbage") o.garbage = true;
        else if (a == "--close-stdout") o.close_stdout = true;
        else if (a == "--fork-holder") o.fork_holder = true;
        else if (a == "--ignore-term") o.ignore_term = true;
        else if (a == "--alloc-mib") o.alloc_mib = std::stoll(value());
        else if (a == "--spin") o.spin = true;
        else if (a == "--crlf") o.crlf = true;
        else if (a == "--lines") o.lines = std::stoi(value());
        else if (a == "--busy-ms") o.busy_ms = std::stoi(value());
        else if (a == "--tcp") o.tcp = true;
        else if (a == "--http") o.http = true;
        else {
            std::fprintf(stderr, "fault_bot: unknown flag %s\n", a.c_str());
            std::exit(64);
        }
    }
    return o;
}

void record_pid(const std::string& pidfile, const char* what, pid_t pid) {
    if (pidfile.empty()) return;
    std::ofstream out(pidfile, std::ios::app);
    out << what << " " << pid << "\n";
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Until the process's own CPU clock has advanced by MS: on a loaded machine a wall-clock loop
// would use less CPU than asked.
void burn_cpu_ms(int ms) {
    auto cpu_now = [] {
        timespec ts{};
        ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
    };
    const auto until = cpu_now() + std::chrono::milliseconds(ms);
    volatile unsigned long x = 0;
    while (cpu_now() < until) {
        for (int i = 0; i < 1000; ++i) x = x + i;
    }
}

void answer(const Options& o, const std::string& line) {
    const char* eol = o.crlf ? "\r\n" : "\n";
    if (o.lines > 0) {
        for (int i = 0; i < o.lines; ++i) std::printf("line %d%s", i, eol);
        std::printf("go%s", eol);
    } else {
        std::printf("echo %s%s", line.c_str(), eol);
    }
    std::fflush(stdout);
}

int arbiter_port() {
    const char* port = std::getenv("ARBITER_PORT");
    if (port == nullptr) {
        std::fprintf(stderr, "fault_bot: ARBITER_PORT is not set\n");
        std::exit(64);
    }
    return std::atoi(port);
}

sockaddr_in loopback(int port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

// The socket becomes stdin and stdout, so the line loop below serves TCP unchanged.
void connect_stdio_to_arbiter() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    const sockaddr_in address = loopback(arbiter_port());
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        std::perror("fault_bot: connect");
        std::exit(65);
    }
    ::dup2(fd, STDIN_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
    if (const char* token = std::getenv("ARBITER_TOKEN")) {
        std::printf("join %s\n", token);
        std::fflush(stdout);
    }
}

int serve_http(const Options& o) {
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    const int yes = 1;
    ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    const sockaddr_in address = loopback(arbiter_port());
    if (::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 8) != 0) {
        std::perror("fault_bot: listen");
        return 65;
    }
    int answered = 0;
    for (;;) {
        const int client = ::accept(listener, nullptr, nullptr);
        if (client < 0) continue;
        std::string request;
        char buffer[4096];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = ::read(client, buffer, sizeof buffer);
            if (n <= 0) break;
            request.append(buffer, static_cast<std::size_t>(n));
        }
        const auto first_space = request.find(' ');
        const auto second_space = request.find(' ', first_space + 1);
        std::string target = first_space == std::string::npos ? "" : request.substr(first_space + 1, second_space - first_space - 1);
        if (!target.empty() && target.front() == '/') target.erase(0, 1);
        if (target == "quit") return 0;
        if (o.crash_after >= 0 && answered >= o.crash_after) std::abort();
        if (o.never_answer) continue;  // keeps the connection open, never answers
        if (o.late_ms > 0) sleep_ms(o.late_ms);
        const std::string body = "echo " + target + "\n";
        const std::string reply = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                                  std::to_string(body.size()) + "\r\n\r\n" + body;
        if (::write(client, reply.data(), reply.size()) < 0) std::perror("fault_bot: write");
        ::close(client);
        ++answered;
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    record_pid(o.pidfile, "pid", ::getpid());
    if (o.ignore_term) ::signal(SIGTERM, SIG_IGN);
    if (o.exit_at_start >= 0) return o.exit_at_start;
    if (o.start_delay_ms > 0) sleep_ms(o.start_delay_ms);
    if (o.http) return serve_http(o);
    if (o.tcp) connect_stdio_to_arbiter();
    if (o.fork_holder) {
        const pid_t child = ::fork();
        if (child == 0) {
            // Holds stdin/stdout/stderr open for a long time, ignoring SIGTERM as stubborn
            // leftovers do.
            ::signal(SIGTERM, SIG_IGN);
            for (;;) ::pause();
        }
        record_pid(o.pidfile, "child", child);
        return 0;
    }
    if (o.stderr_bytes > 0) {
        std::string block(1 << 16, 'e');
        for (long long left = o.stderr_bytes; left > 0;) {
            const std::size_t n = static_cast<std::size_t>(std::min<long long>(left, static_cast<long long>(block.size())));
            if (::write(STDERR_FILENO, block.data(), n) < 0) break;
            left -= static_cast<long long>(n);
        }
    }
    if (o.close_stdout) {
        std::fclose(stdout);
        ::close(STDOUT_FILENO);
    }

    std::vector<char*> hoard;
    int answered = 0;
    char buffer[1 << 16];
    while (std::fgets(buffer, sizeof buffer, stdin) != nullptr) {
        std::string line(buffer);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        if (line == "quit" && !o.ignore_term) return 0;
        if (o.close_stdout || o.never_answer) continue;
        if (o.crash_after >= 0 && answered >= o.crash_after) std::abort();
        if (o.spin) {
            volatile unsigned long x = 0;
            for (;;) x = x + 1;
        }
        if (o.alloc_mib > 0 && hoard.empty()) {
            for (long long i = 0; i < o.alloc_mib; ++i) {
                char* block = static_cast<char*>(std::malloc(1 << 20));
                if (block == nullptr) {
                    std::fprintf(stderr, "fault_bot: malloc failed after %lld MiB\n", i);
                    std::abort();
                }
                std::memset(block, 1, 1 << 20);
                hoard.push_back(block);
            }
        }
        if (o.late_ms > 0) sleep_ms(o.late_ms);
        if (o.busy_ms > 0) burn_cpu_ms(o.busy_ms);
        if (o.flood) {
            std::string junk(1 << 16, 'x');
            for (;;) {
                if (::write(STDOUT_FILENO, junk.data(), junk.size()) < 0) return 1;
            }
        }
        if (o.garbage) {
            const char bytes[] = {'\x00', '\xff', '\x01', '\x7f', 'g', '\x1b', '[', '\xfe', '\n'};
            std::fwrite(bytes, 1, sizeof bytes, stdout);
            std::fflush(stdout);
            ++answered;
            continue;
        }
        answer(o, line);
        ++answered;
    }
    // A stubborn bot does not take end of input as a hint either.
    if (o.ignore_term) {
        for (;;) ::pause();
    }
    return 0;
}

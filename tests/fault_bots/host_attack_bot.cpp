// A contestant whose target is the host, not the next seat: each request line names one attack,
// and the answer is one line saying what it achieved. The tests run it with and without the
// sandbox, so that every attack is seen to succeed without the defence and to fail with it.
// Attacks are harmless when they succeed: a kernel setting is written back with its own value,
// files are only read, writes go to paths the test gives.
//   id                  the user id it runs as: "uid N"
//   read PATH           "read N bytes" or "cannot read: <why>"
//   list PATH           "N entries" or "cannot list: <why>"
//   write PATH          creates PATH: "wrote" or "cannot write: <why>"
//   sysctl PATH         writes the setting's own value back: "wrote setting" or "cannot write setting: <why>"
//   env NAME            its own variable NAME: "NAME=value" or "NAME unset"
//   fill PATH MIB       writes MIB MiB into PATH: "filled K MiB" (how many went in), then ": <why>" if short
//   unix PATH           connects to a Unix socket: "connected" or "not connected: <why>"
//   forker PATH         starts a process chain that keeps re-forking and counts in PATH: "forking"
//   count PATH          the number in PATH: "count N"
//   oom-child MIB       a child allocates MIB MiB and waits; "child killed by signal N" or "child exited N"
//   setuid PATH         creates PATH and gives it the set-user-ID bit: "set-id bit set" or "cannot set: <why>"
//   remove PATH         removes PATH (a folder with all it holds): "removed N" or "cannot remove: <why>"
//   mkdir PATH          makes the folder PATH: "made" or "cannot make: <why>"
//   symlink TARGET PATH replaces PATH with a link to TARGET: "linked" or "cannot link: <why>"
//   files PATH N        makes N empty files in the folder PATH: "made N files" (how many went in)
//   nest PATH LEVELS N  nests LEVELS folders of N-character names in PATH: "nested K" (how deep it got)
//   exe                 the program that runs: "exe PATH" (/proc/self/exe)
//   exit-after MS       answers "exiting", then exits MS milliseconds later
//   hold N              forks N children that sleep until the match ends: "held K" (how many started)
//   threads N           starts N threads at once, then ends them: "threads K" (how many started)
//   lock PATH           locks PATH (flock, held until it ends): "locked" or "cannot lock: <why>"
//   probe-lock PATH     whether another process holds PATH locked: "held", "free" or "cannot probe: <why>"
//   watch PATH          watches PATH for opens and reads (inotify): "watching" or "cannot watch: <why>"
//   events              what the watch saw so far: "N events"
//   touch PATH          opens PATH and reads a byte: "touched" or "cannot touch: <why>"
//   map-shared PATH     maps PATH shared and read-only: "mapped" or "cannot map: <why>"
//   cat PATH            PATH's text on one line, its line ends as '|': "text ..." or "cannot read: <why>"
//   trace-init          PTRACE_ATTACH to process 1 and /proc/1/mem opened for writing: "ATTACH MEM"
//                       as "ok"/errno names (only run in its own PID namespace: there 1 is its init)
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string why() { return std::strerror(errno); }

std::string read_path(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read: " + why();
    std::ostringstream text;
    text << in.rdbuf();
    return "read " + std::to_string(text.str().size()) + " bytes";
}

std::string list_path(const std::string& path) {
    std::error_code ec;
    std::size_t n = 0;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) ++n;
    return ec ? "cannot list: " + ec.message() : std::to_string(n) + " entries";
}

std::string write_path(const std::string& path) {
    std::ofstream out(path);
    out << "written by a bot\n";
    out.flush();
    return out.good() ? "wrote" : "cannot write: " + why();
}

std::string rewrite_setting(const std::string& path) {
    std::ifstream in(path);
    std::string value;
    if (!in || !std::getline(in, value)) return "cannot write setting: cannot read it: " + why();
    std::ofstream out(path);
    if (!out) return "cannot write setting: " + why();
    out << value << "\n";
    out.flush();
    return out.good() ? "wrote setting" : "cannot write setting: " + why();
}

std::string fill(const std::string& path, int mib) {
    std::signal(SIGXFSZ, SIG_IGN);  // past RLIMIT_FSIZE a write then fails with EFBIG
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return "filled 0 MiB: " + why();
    const std::vector<char> chunk(1 << 20, 'x');
    int written = 0;
    std::string error;
    for (; written < mib; ++written) {
        if (std::fwrite(chunk.data(), 1, chunk.size(), f) != chunk.size() || std::fflush(f) != 0) {
            error = ": " + why();
            break;
        }
    }
    std::fclose(f);
    return "filled " + std::to_string(written) + " MiB" + error;
}

std::string connect_unix(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    const std::string reason = ok ? "" : why();
    ::close(fd);
    return ok ? "connected" : "not connected: " + reason;
}

// Each process of the chain counts once, forks its successor and exits: no pid lives long enough
// to be stopped by a signal sent to a list of pids read a moment earlier.
[[noreturn]] void fork_chain(const std::string& path) {
    for (long n = 0;; ++n) {
        {
            std::ofstream out(path, std::ios::trunc);
            out << n << "\n";
        }
        ::usleep(2000);
        // The successor counts on; where no fork is possible (the seat's process limit, full of
        // zombies nobody reaped yet) this one does.
        if (::fork() > 0) ::_exit(0);
    }
}

std::string start_forker(const std::string& path) {
    if (::fork() == 0) {
        ::setsid();
        for (int fd = 0; fd < 3; ++fd) ::close(fd);
        fork_chain(path);
    }
    return "forking";
}

std::string count(const std::string& path) {
    std::ifstream in(path);
    long n = -1;
    in >> n;
    return "count " + std::to_string(n);
}

std::string oom_child(int mib) {
    const pid_t child = ::fork();
    if (child == 0) {
        std::vector<char*> blocks;
        for (int i = 0; i < mib; ++i) {
            char* block = static_cast<char*>(std::malloc(1 << 20));
            if (block == nullptr) ::_exit(3);
            std::memset(block, 1, 1 << 20);
            blocks.push_back(block);
        }
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) return "child killed by signal " + std::to_string(WTERMSIG(status));
    return "child exited " + std::to_string(WEXITSTATUS(status));
}

std::string many_files(const std::string& folder, int n) {
    int made = 0;
    for (; made < n; ++made) {
        const std::string path = folder + "/f" + std::to_string(made);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) break;
        ::close(fd);
    }
    return "made " + std::to_string(made) + " files";
}

std::string nest(std::string path, int levels, int name_length) {
    int depth = 0;
    for (; depth < levels; ++depth) {
        path += "/" + std::string(static_cast<std::size_t>(name_length), 'd');
        if (::mkdir(path.c_str(), 0755) != 0) break;
    }
    return "nested " + std::to_string(depth);
}

std::string hold_children(int n) {
    int held = 0;
    for (; held < n; ++held) {
        const pid_t child = ::fork();
        if (child < 0) break;
        if (child == 0) {
            ::sleep(60);
            ::_exit(0);
        }
    }
    return "held " + std::to_string(held);
}

std::string start_threads(int n) {
    std::vector<pthread_t> started;
    for (int i = 0; i < n; ++i) {
        pthread_t thread{};
        if (::pthread_create(&thread, nullptr, [](void*) -> void* { ::usleep(100000); return nullptr; }, nullptr) != 0) break;
        started.push_back(thread);
    }
    for (pthread_t thread : started) ::pthread_join(thread, nullptr);
    return "threads " + std::to_string(started.size());
}

std::vector<int> held_files;  // locks and watches live as long as the bot
int watch_fd = -1;

std::string lock_path(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) return "cannot lock: " + why();
    held_files.push_back(fd);
    return "locked";
}

std::string probe_lock(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot probe: " + why();
    const int rc = ::flock(fd, LOCK_EX | LOCK_NB);
    const int error = errno;
    ::close(fd);
    if (rc == 0) return "free";
    return error == EWOULDBLOCK ? "held" : std::string("cannot probe: ") + std::strerror(error);
}

std::string watch_path(const std::string& path) {
    watch_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (watch_fd < 0 || ::inotify_add_watch(watch_fd, path.c_str(), IN_OPEN | IN_ACCESS) < 0) return "cannot watch: " + why();
    return "watching";
}

std::string watched_events() {
    int events = 0;
    alignas(inotify_event) char buffer[4096];
    for (ssize_t n; watch_fd >= 0 && (n = ::read(watch_fd, buffer, sizeof buffer)) > 0;)
        for (ssize_t at = 0; at < n; at += static_cast<ssize_t>(sizeof(inotify_event) + reinterpret_cast<inotify_event*>(buffer + at)->len))
            ++events;
    return std::to_string(events) + " events";
}

std::string touch(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    char byte = 0;
    if (fd < 0 || ::read(fd, &byte, 1) != 1) return "cannot touch: " + why();
    ::close(fd);
    return "touched";
}

std::string map_shared(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot map: " + why();
    void* map = ::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
    const std::string answer = map == MAP_FAILED ? "cannot map: " + why() : "mapped";
    ::close(fd);
    return answer;
}

std::string errno_text(long rc) { return rc < 0 ? std::string(::strerrorname_np(errno)) : "ok"; }

std::string trace_init() {
    const std::string attach = errno_text(::ptrace(PTRACE_ATTACH, 1, nullptr, nullptr));
    if (attach == "ok") ::ptrace(PTRACE_DETACH, 1, nullptr, nullptr);
    const int mem = ::open("/proc/1/mem", O_RDWR | O_CLOEXEC);
    const std::string opened = errno_text(mem);
    if (mem >= 0) ::close(mem);
    return attach + " " + opened;
}

std::string attack(const std::string& line) {
    std::istringstream in(line);
    std::string verb, path;
    in >> verb >> path;
    int mib = 0;
    if (verb == "id") return "uid " + std::to_string(::getuid());
    if (verb == "exe") {
        std::error_code ec;
        return "exe " + fs::read_symlink("/proc/self/exe", ec).string();
    }
    if (verb == "read") return read_path(path);
    if (verb == "list") return list_path(path);
    if (verb == "write") return write_path(path);
    if (verb == "sysctl") return rewrite_setting(path);
    if (verb == "env") {
        const char* value = std::getenv(path.c_str());
        return value != nullptr ? path + "=" + value : path + " unset";
    }
    if (verb == "fill" && (in >> mib)) return fill(path, mib);
    if (verb == "unix") return connect_unix(path);
    if (verb == "forker") return start_forker(path);
    if (verb == "count") return count(path);
    if (verb == "oom-child") return oom_child(std::atoi(path.c_str()));
    if (verb == "remove") {
        std::error_code ec;
        const auto removed = fs::remove_all(path, ec);
        return ec ? "cannot remove: " + ec.message() : "removed " + std::to_string(removed);
    }
    if (verb == "mkdir") return ::mkdir(path.c_str(), 0755) == 0 ? "made" : "cannot make: " + why();
    if (verb == "symlink") {
        std::string link;
        in >> link;
        ::unlink(link.c_str());
        return ::symlink(path.c_str(), link.c_str()) == 0 ? "linked" : "cannot link: " + why();
    }
    if (verb == "files" && (in >> mib)) return many_files(path, mib);
    if (verb == "hold") return hold_children(std::atoi(path.c_str()));
    if (verb == "lock") return lock_path(path);
    if (verb == "probe-lock") return probe_lock(path);
    if (verb == "watch") return watch_path(path);
    if (verb == "events") return watched_events();
    if (verb == "touch") return touch(path);
    if (verb == "map-shared") return map_shared(path);
    if (verb == "trace-init") return trace_init();
    if (verb == "cat") {
        std::ifstream in(path, std::ios::binary);
        if (!in) return "cannot read: " + why();
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (char& c : text)
            if (c == '\n') c = '|';
        return "text " + text;
    }
    if (verb == "threads") return start_threads(std::atoi(path.c_str()));
    int name_length = 0;
    if (verb == "nest" && (in >> mib >> name_length)) return nest(path, mib, name_length);
    if (verb == "setuid") {
        std::ofstream(path) << "#!/bin/sh\n";
        return ::chmod(path.c_str(), 04755) == 0 ? "set-id bit set" : "cannot set: " + why();
    }
    return "unknown attack '" + verb + "'";
}

}  // namespace

int main() {
    std::signal(SIGPIPE, SIG_IGN);
    for (std::string line; std::getline(std::cin, line);) {
        if (line.rfind("exit-after ", 0) == 0) {
            std::cout << "exiting" << std::endl;
            ::usleep(static_cast<useconds_t>(std::atoi(line.c_str() + 11)) * 1000);
            return 0;
        }
        std::cout << attack(line) << std::endl;
    }
}

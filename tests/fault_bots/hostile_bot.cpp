// A hostile contestant for the confinement tests. On each request line it makes one attack and
// answers one line saying what it achieved; without an attack it is a victim that echoes
// ("echo <line>"). Attacks only ever aim at processes whose command line holds --target TEXT, so
// that a run without confinement cannot harm anything else on the machine.
//   --forge          write a forged reply into every target's stdout through /proc/<pid>/fd/1
//   --environ KEY    read every target's environment through /proc/<pid>/environ, answer KEY's values
//   --signal         SIGKILL every target
//   --connect PORT   open a TCP connection to 127.0.0.1:PORT
//   --daemon         double-fork a setsid() daemon that sleeps (it keeps this command line)
//   --write PATH     create PATH
// --tcp: talk to the arbiter over TCP (127.0.0.1:$ARBITER_PORT) instead of stdin/stdout.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fault_bots/tcp_stdio.hpp"

namespace fs = std::filesystem;

namespace {

struct Options {
    std::string attack, argument, target;
};

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Pids (as this process sees them) whose command line holds `target`, other than our own.
std::vector<std::string> targets(const std::string& target) {
    std::vector<std::string> pids;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename();
        // Not itself, nor its parent (under bwrap the namespace's init, whose command line is bwrap's).
        if (name.find_first_not_of("0123456789") != std::string::npos || name == std::to_string(::getpid()) ||
            name == std::to_string(::getppid()))
            continue;
        std::string cmdline = read_all(entry.path() / "cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (!target.empty() && cmdline.find(target) != std::string::npos) pids.push_back(name);
    }
    return pids;
}

std::string forge(const Options& o) {
    int forged = 0;
    for (const auto& pid : targets(o.target)) {
        const int fd = ::open(("/proc/" + pid + "/fd/1").c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) continue;
        if (::write(fd, "FORGED\n", 7) == 7) ++forged;
        ::close(fd);
    }
    return "forged " + std::to_string(forged);
}

std::string environ_values(const Options& o) {
    std::string found;
    for (const auto& pid : targets(o.target)) {
        std::istringstream env(read_all("/proc/" + pid + "/environ"));
        for (std::string entry; std::getline(env, entry, '\0');)
            if (entry.rfind(o.argument + "=", 0) == 0) found += " " + entry.substr(o.argument.size() + 1);
    }
    return "environ" + (found.empty() ? std::string(" none") : found);
}

std::string signal_targets(const Options& o) {
    int signalled = 0;
    for (const auto& pid : targets(o.target))
        if (::kill(std::stoi(pid), SIGKILL) == 0) ++signalled;
    return "signalled " + std::to_string(signalled);
}

std::string connect_to(const Options& o) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(std::stoi(o.argument)));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    const std::string why = ok ? "" : std::strerror(errno);
    ::close(fd);
    return ok ? "connected" : "not connected: " + why;
}

std::string daemonize() {
    if (::fork() == 0) {
        ::setsid();
        if (::fork() == 0) {
            for (int fd = 0; fd < 3; ++fd) ::close(fd);
            for (;;) ::pause();
        }
        ::_exit(0);
    }
    return "daemon started";
}

std::string write_file(const Options& o) {
    std::ofstream out(o.argument);
    out << "written by a bot\n";
    return out.good() ? "wrote " + o.argument : "cannot write " + o.argument + ": " + std::strerror(errno);
}

std::string attack(const Options& o) {
    if (o.attack == "--forge") return forge(o);
    if (o.attack == "--environ") return environ_values(o);
    if (o.attack == "--signal") return signal_targets(o);
    if (o.attack == "--connect") return connect_to(o);
    if (o.attack == "--daemon") return daemonize();
    if (o.attack == "--write") return write_file(o);
    return "";
}


}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--target" && i + 1 < argc) o.target = argv[++i];
        else if (a == "--tag" && i + 1 < argc) ++i;  // only marks the command line
        else if (a == "--tcp") talk_over_tcp();
        else if ((a == "--environ" || a == "--connect" || a == "--write") && i + 1 < argc) o.attack = a, o.argument = argv[++i];
        else o.attack = a;
    }
    std::signal(SIGPIPE, SIG_IGN);
    for (std::string line; std::getline(std::cin, line);) {
        const std::string report = o.attack.empty() ? "echo " + line : attack(o);
        std::cout << report << std::endl;
    }
}

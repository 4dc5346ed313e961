#pragma once
// For the attack bots that can sit on a TCP seat (--tcp): connects to the arbiter at
// 127.0.0.1:$ARBITER_PORT and makes the socket stdin and stdout, so their line loop serves a TCP
// seat unchanged. Exits 65 when it cannot connect.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

inline void talk_over_tcp() {
    const char* port = std::getenv("ARBITER_PORT");
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port ? std::atoi(port) : 0));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) std::exit(65);
    ::dup2(fd, STDIN_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
}

// The ProcessTable's network endpoints: where a TCP or HTTP bot finds the arbiter (a loopback
// port in its environment and command line), and the loopback TCP channel, where the bot
// connects to us and then talks lines over the socket as a stdio bot does over its pipes
// (smart-dog; smartdog.md 9). HTTP GET to a bot that serves is in process_table_http.cpp.
#include <fcntl.h>

#include <utility>

#include "core/process_table_internal.hpp"

namespace arb::process_table_detail {

void ProcessTableImpl::prepare_endpoint(int s, SpawnRequest& request) {
    Seat& seat = at(s);
    const ChannelKind kind = seat.channel.kind;
    if (kind == ChannelKind::stdio) return;
    // The bot learns where to talk from ARBITER_HOST/ARBITER_PORT (and ARBITER_URL for HTTP)
    // or from {host}, {port}, {url} in its command line: the originals had the address
    // configured in the client (smartdog.md 9: port 3002; koehandel.md 2.2: a URL).
    const asio::ip::tcp::endpoint loopback(asio::ip::address_v4::loopback(), 0);
    if (kind == ChannelKind::tcp_client) {
        seat.channel.acceptor = std::make_unique<asio::ip::tcp::acceptor>(ctx_, loopback);
        seat.channel.port = seat.channel.acceptor->local_endpoint().port();
    } else {
        // A free port we choose for the bot to serve on (listen on 127.0.0.1 only).
        asio::ip::tcp::acceptor probe(ctx_, loopback);
        seat.channel.port = probe.local_endpoint().port();
    }
    const std::string host = "127.0.0.1";
    const std::string port = std::to_string(seat.channel.port);
    const std::string url = "http://" + host + ":" + port + "/";
    request.env["ARBITER_HOST"] = host;
    request.env["ARBITER_PORT"] = port;
    if (kind == ChannelKind::http_server) request.env["ARBITER_URL"] = url;
    // A seat secret the referee put in the environment (smart-dog's join token) may also be
    // wanted on the command line.
    const auto token_env = request.env.find("ARBITER_TOKEN");
    const std::string token = token_env == request.env.end() ? "" : token_env->second;
    for (std::size_t i = 1; i < request.argv.size(); ++i) {
        for (const auto& [key, value] : {std::pair<std::string, std::string>{"{host}", host}, {"{port}", port}, {"{url}", url}, {"{token}", token}}) {
            for (auto at = request.argv[i].find(key); at != std::string::npos; at = request.argv[i].find(key, at + value.size())) {
                request.argv[i].replace(at, key.size(), value);
            }
        }
    }
}

void ProcessTableImpl::accept_connection(int s) {
    at(s).channel.acceptor->async_accept([this, s](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        Seat& seat = at(s);
        SeatChannel& channel = seat.channel;
        if (ec || seat.status != SeatStatus::ok || closed_) return;
        socket.set_option(asio::ip::tcp::no_delay(true));
        const int fd = socket.release();
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        // One socket, two descriptors: writes and reads are watched independently.
        channel.in = std::make_unique<asio::posix::stream_descriptor>(ctx_, ::fcntl(fd, F_DUPFD_CLOEXEC, 3));
        channel.out = std::make_unique<asio::posix::stream_descriptor>(ctx_, fd);
        channel.acceptor->close();
        channel.acceptor.reset();
        transcript(seat, '#', "connected");
        if (!flush_outbox(s)) {
            if (seat.requests.pending()) finish(s, ReplyStatus::closed, "connection closed");
            return;
        }
        if (seat.requests.pending()) watch_stdout(s);
    });
}

}  // namespace arb::process_table_detail

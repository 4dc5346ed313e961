// The ProcessTable's network endpoints: where a TCP or HTTP bot finds the arbiter (a loopback
// port in its environment and command line), and the loopback TCP channel, where the bot
// connects to us and then talks lines over the socket as a stdio bot does over its pipes
// (smart-dog; smartdog.md 9). HTTP GET to a bot that serves is in process_table_http.cpp.
#include <fcntl.h>

#include <algorithm>
#include <array>
#include <optional>
#include <memory>
#include <utility>

#include <boost/asio/write.hpp>

#include "core/process_table_internal.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {

namespace {

std::unique_ptr<asio::ip::tcp::acceptor> listen_on_loopback(asio::io_context& ctx, std::uint16_t port) {
    const asio::ip::tcp::endpoint at(asio::ip::address_v4::loopback(), port);
    auto acceptor = std::make_unique<asio::ip::tcp::acceptor>(ctx);
    boost::system::error_code ec;
    acceptor->open(at.protocol(), ec);
    if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor->bind(at, ec);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw UserError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message());
    return acceptor;
}

}  // namespace

void ProcessTableImpl::prepare_endpoint(int s, SpawnRequest& request) {
    Seat& seat = at(s);
    const ChannelKind kind = seat.channel.kind;
    if (kind == ChannelKind::stdio) return;
    // A confined seat gets a network of its own: only its loopback, where this seat's sockets
    // are made, so the bot reaches the arbiter and no other seat or port.
    if (sandbox_plan_.confined() && seat.launch.bot.url.empty()) seat.channel.netns = loopback_network_namespace();
    std::optional<InNetworkNamespace> inside;
    if (seat.channel.netns.valid()) {
        inside.emplace(seat.channel.netns.get());
        request.netns = seat.channel.netns.get();
    }
    // The bot learns where to talk from ARBITER_HOST/ARBITER_PORT (and ARBITER_URL for HTTP)
    // or from {host}, {port}, {url} in its command line: the originals had the address
    // configured in the client (smartdog.md 9: port 3002; koehandel.md 2.2: a URL).
    const asio::ip::tcp::endpoint loopback(asio::ip::address_v4::loopback(), 0);
    const auto token_env = request.env.find("ARBITER_TOKEN");
    // Seats with a secret that ask for the same fixed port share it and are told apart by
    // `join TOKEN`. Every other TCP seat has a listener of its own (in its own network when
    // confined, on its fixed port there) and is known by the connection it arrives on; its
    // secret, if any, is only a name the bot may join with.
    auto token_seat_on = [](const Seat& other, std::uint16_t port) {
        return other.launch.channel == ChannelKind::tcp_client && other.launch.listen_port == port &&
               other.launch.bot.env.contains("ARBITER_TOKEN");
    };
    const bool shared_port =
        kind == ChannelKind::tcp_client && token_env != request.env.end() && seat.launch.listen_port != 0 &&
        !seat.channel.netns.valid() &&
        std::count_if(seats_.begin(), seats_.end(), [&](const auto& other) { return token_seat_on(*other, seat.launch.listen_port); }) > 1;
    if (shared_port) {
        if (join_acceptors_.empty()) {
            join_acceptors_.push_back(listen_on_loopback(ctx_, seat.launch.listen_port));
            join_accepting_.push_back(false);
        }
        seat.channel.port = join_acceptors_.back()->local_endpoint().port();
        seat.channel.join_token = token_env->second;
        seat.channel.awaiting_join = true;
    } else if (kind == ChannelKind::tcp_client) {
        seat.channel.acceptor = listen_on_loopback(ctx_, seat.channel.netns.valid() ? seat.launch.listen_port : 0);
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
    // The seat secret may also be wanted on the command line.
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
    if (at(s).channel.awaiting_join) {
        accept_joins();
        return;
    }
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


// ---- the shared port: connections are seated by their first line, `join TOKEN [HUB]` -----------

namespace {
constexpr std::size_t kMaxJoinLine = 4096;
constexpr int kMaxUnjoined = 16;  // connections that have not sent their first line yet
}  // namespace

void ProcessTableImpl::accept_joins() {
    for (std::size_t i = 0; i < join_acceptors_.size(); ++i) accept_join(i);
}

void ProcessTableImpl::accept_join(std::size_t i) {
    if (join_accepting_[i] || closed_) return;
    join_accepting_[i] = true;
    join_acceptors_[i]->async_accept([this, i](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        join_accepting_[i] = false;
        if (ec == asio::error::operation_aborted || closed_) return;
        if (!ec) {
            if (unjoined_connections_ >= kMaxUnjoined) {
                socket.close();  // a flood of idle connections: drop the newest
            } else {
                ++unjoined_connections_;
                read_join(std::make_shared<asio::ip::tcp::socket>(std::move(socket)), std::make_shared<std::string>());
            }
        }
        // Keep listening while the match runs: a late or second connection gets its answer.
        accept_join(i);
    });
}

void ProcessTableImpl::read_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::shared_ptr<std::string> received) {
    auto chunk = std::make_shared<std::array<char, 512>>();
    socket->async_read_some(asio::buffer(*chunk), [this, socket, received, chunk](const boost::system::error_code& ec,
                                                                                   std::size_t n) {
        if (ec == asio::error::operation_aborted || closed_) return;
        received->append(chunk->data(), n);
        if (ec || received->size() > kMaxJoinLine) {
            --unjoined_connections_;
            return;  // closed, or no line within the cap: the socket closes with its last owner
        }
        if (received->find('\n') == std::string::npos) {
            read_join(socket, received);
            return;
        }
        --unjoined_connections_;
        route_join(socket, std::move(*received));
    });
}

void ProcessTableImpl::route_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::string received) {
    std::string line = received.substr(0, received.find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // join TOKEN [HUB]: the hub (a leading '#' allowed) names nothing here and is not checked.
    std::string token;
    if (line.starts_with("join ")) {
        token = line.substr(5);
        token = token.substr(0, token.find(' '));
    }
    for (int s = 0; s < size(); ++s) {
        Seat& seat = at(s);
        if (!token.empty() && seat.channel.awaiting_join && seat.channel.join_token == token && seat.status == SeatStatus::ok) {
            seat.channel.awaiting_join = false;
            seat_connection(s, *socket, received);
            return;
        }
    }
    // An unknown or already used token: the original's error line, then the connection closes.
    auto reply = std::make_shared<std::string>("error Unknown token\n");
    asio::async_write(*socket, asio::buffer(*reply), [socket, reply](const boost::system::error_code&, std::size_t) {
        boost::system::error_code ignored;
        socket->shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    });
}

void ProcessTableImpl::seat_connection(int s, asio::ip::tcp::socket& socket, std::string_view received) {
    Seat& seat = at(s);
    SeatChannel& channel = seat.channel;
    socket.set_option(asio::ip::tcp::no_delay(true));
    const int fd = socket.release();
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    channel.in = std::make_unique<asio::posix::stream_descriptor>(ctx_, ::fcntl(fd, F_DUPFD_CLOEXEC, 3));
    channel.out = std::make_unique<asio::posix::stream_descriptor>(ctx_, fd);
    transcript(seat, '#', "connected");
    // The join line (and anything after it) is the seat's first output.
    channel.lines.append(received);
    if (!flush_outbox(s)) {
        if (seat.requests.pending()) finish(s, ReplyStatus::closed, "connection closed");
        return;
    }
    if (seat.requests.pending()) {
        watch_stdout(s);
        if (seat.requests.active->write_done) feed_lines(s);
    }
}

}  // namespace arb::process_table_detail

// The loopback TCP channel: the bot connects to a port the arbiter listens on, then talks lines
// over the socket as a stdio bot does over its pipes (smart-dog; smartdog.md 9). Seats that share
// a fixed port are told apart by their first line, `join TOKEN [HUB]` (SharedPort).
#include <fcntl.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <utility>

#include <boost/asio/write.hpp>

#include "core/channel/channel_lines.hpp"
#include "core/confine/sandbox.hpp"
#include "core/unique_fd.hpp"

namespace arb::process_table_detail {

class TcpChannel final : public LineChannel {
public:
    explicit TcpChannel(const ChannelSeat& seat) : LineChannel(seat), shared_port_(seat.shared_port) {}

    bool networked() const override { return true; }
    void prepare(SpawnRequest& request, bool confined) override;
    void attach(SpawnedBot&) override { accept(); }

    // A connection on the shared port whose first line names this seat's token.
    bool joins(std::string_view token) const { return awaiting_join_ && join_token_ == token && events_.playing(); }
    // The connection is this seat's; `received` is what the bot sent first (its join line).
    void seat_connection(asio::ip::tcp::socket& socket, std::string_view received);

protected:
    bool connecting() const override { return acceptor_ || awaiting_join_; }
    // Also: a bot that has not connected yet can no longer connect.
    void close_input() override {
        LineChannel::close_input();
        if (acceptor_) acceptor_->close();
    }

private:
    void accept();
    void take_socket(asio::ip::tcp::socket& socket);

    SharedPort& shared_port_;
    std::uint16_t port_ = 0;
    std::unique_ptr<asio::ip::tcp::acceptor> acceptor_;  // a listener of its own, until the bot connects
    std::string join_token_;     // on the shared port: seated by `join <token>`
    bool awaiting_join_ = false;  // ... and not seated yet
    UniqueFd netns_;  // confined: the seat's own network namespace (its listener is made in it)
};

std::unique_ptr<Channel> make_tcp_channel(const ChannelSeat& seat) { return std::make_unique<TcpChannel>(seat); }

void TcpChannel::prepare(SpawnRequest& request, bool confined) {
    // A confined seat gets a network of its own: only its loopback, where this seat's sockets
    // are made, so the bot reaches the arbiter and no other seat or port.
    if (confined) netns_ = loopback_network_namespace();
    if (netns_.valid()) request.netns = netns_.get();
    // Seats with a secret that ask for the same fixed port share it and are told apart by
    // `join TOKEN`. Every other TCP seat has a listener of its own (in its own network when
    // confined, on its fixed port there) and is known by the connection it arrives on; its
    // secret, if any, is only a name the bot may join with.
    const auto token_env = request.env.find("ARBITER_TOKEN");
    if (token_env != request.env.end() && !netns_.valid() && shared_port_.shared(launch_)) {
        port_ = shared_port_.listen(launch_.listen_port);
        join_token_ = token_env->second;
        awaiting_join_ = true;
        shared_port_.wait_for(*this);
    } else {
        acceptor_ = listen_on_loopback(ctx_, netns_.valid() ? launch_.listen_port : 0, netns_.valid() ? netns_.get() : -1);
        port_ = acceptor_->local_endpoint().port();
    }
    tell_address(request, port_, false);
}

void TcpChannel::accept() {
    if (awaiting_join_) {
        shared_port_.accept_all();
        return;
    }
    acceptor_->async_accept([this](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        if (ec || !events_.playing() || events_.closing()) return;
        acceptor_->close();
        acceptor_.reset();
        take_socket(socket);
        if (!flush()) {
            if (events_.pending()) events_.finish(ReplyStatus::closed, "connection closed");
            return;
        }
        if (events_.pending()) watch();
    });
}

void TcpChannel::take_socket(asio::ip::tcp::socket& socket) {
    socket.set_option(asio::ip::tcp::no_delay(true));
    const int fd = socket.release();
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    // One socket, two descriptors: writes and reads are watched independently.
    attach_streams(::fcntl(fd, F_DUPFD_CLOEXEC, 3), fd);
    events_.transcript('#', "connected");
}

void TcpChannel::seat_connection(asio::ip::tcp::socket& socket, std::string_view received) {
    awaiting_join_ = false;
    take_socket(socket);
    // The join line (and anything after it) is the seat's first output.
    lines_.append(received);
    if (!flush()) {
        if (events_.pending()) events_.finish(ReplyStatus::closed, "connection closed");
        return;
    }
    if (events_.pending()) {
        watch();
        if (events_.reading()) feed();
    }
}

// ---- the shared port: connections are seated by their first line, `join TOKEN [HUB]` -----------

namespace {
constexpr std::size_t kMaxJoinLine = 4096;
constexpr int kMaxUnjoined = 16;  // connections that have not sent their first line yet
}  // namespace

SharedPort::SharedPort(asio::io_context& ctx, const std::vector<SeatLaunch>& launches)
    : ctx_(ctx) {
    for (const auto& launch : launches) {
        if (launch.channel == ChannelKind::tcp_client && launch.bot.env.contains("ARBITER_TOKEN")) {
            token_ports_.push_back(launch.listen_port);
        }
    }
}

bool SharedPort::shared(const SeatLaunch& launch) const {
    return launch.listen_port != 0 && std::count(token_ports_.begin(), token_ports_.end(), launch.listen_port) > 1;
}

std::uint16_t SharedPort::listen(std::uint16_t port) {
    if (listeners_.empty()) {
        listeners_.push_back(listen_on_loopback(ctx_, port));
        accepting_.push_back(false);
    }
    return listeners_.back()->local_endpoint().port();
}

void SharedPort::accept_all() {
    for (std::size_t i = 0; i < listeners_.size(); ++i) accept(i);
}

void SharedPort::accept(std::size_t i) {
    if (accepting_[i] || !open_) return;
    accepting_[i] = true;
    listeners_[i]->async_accept([this, i](const boost::system::error_code& ec, asio::ip::tcp::socket socket) {
        accepting_[i] = false;
        if (ec == asio::error::operation_aborted || !open_) return;
        if (!ec) {
            if (unjoined_ >= kMaxUnjoined) {
                socket.close();  // a flood of idle connections: drop the newest
            } else {
                ++unjoined_;
                read_join(std::make_shared<asio::ip::tcp::socket>(std::move(socket)), std::make_shared<std::string>());
            }
        }
        // Keep listening while the match runs: a late or second connection gets its answer.
        accept(i);
    });
}

void SharedPort::read_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::shared_ptr<std::string> received) {
    auto chunk = std::make_shared<std::array<char, 512>>();
    socket->async_read_some(asio::buffer(*chunk), [this, socket, received, chunk](const boost::system::error_code& ec,
                                                                                   std::size_t n) {
        if (ec == asio::error::operation_aborted || !open_) return;
        received->append(chunk->data(), n);
        if (ec || received->size() > kMaxJoinLine) {
            --unjoined_;
            return;  // closed, or no line within the cap: the socket closes with its last owner
        }
        if (received->find('\n') == std::string::npos) {
            read_join(socket, received);
            return;
        }
        --unjoined_;
        route(socket, std::move(*received));
    });
}

void SharedPort::route(std::shared_ptr<asio::ip::tcp::socket> socket, std::string received) {
    std::string line = received.substr(0, received.find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // join TOKEN [HUB]: the hub (a leading '#' allowed) names nothing here and is not checked.
    std::string token;
    if (line.starts_with("join ")) {
        token = line.substr(5);
        token = token.substr(0, token.find(' '));
    }
    for (TcpChannel* channel : waiting_) {
        if (!token.empty() && channel->joins(token)) {
            channel->seat_connection(*socket, received);
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

}  // namespace arb::process_table_detail

// The HTTP GET channel (Koehandel; koehandel.md 2.2, seed 002: the server GETs the player's URL):
// the bot serves HTTP, and each request is "GET /<request text> HTTP/1.1". The client is
// Boost.Beast on the table's event loop, kept alone in this file.
//
// - Keep-alive: the connection stays open after a complete reply while the bot allows it. A kept
//   connection the bot closed meanwhile (the server's idle timeout) is replaced once, quietly.
// - Bodies: Content-Length, chunked, or up to the end of the stream (HTTP/1.0 style).
// - Limits: header and body are capped (max_line_bytes of body): a larger reply is an overflow.
// - Redirects are refused, not followed: a 3xx (like any status other than 2xx) is noted in the
//   transcript and answers nothing (an empty reply, the game's default action).
// - Time: connection refused (the bot is still starting) is retried every kConnectRetry until
//   the deadline; the seat's clock bounds connecting, writing and reading together.
// - Failures: each request is its own exchange, so a failed one closes its connection and the
//   seat plays on while its bot runs (exchange_per_request; the table decides).
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <memory>
#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "core/channel/channel.hpp"
#include "core/confine/sandbox.hpp"
#include "core/unique_fd.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {

namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

// How often an HTTP seat's port is tried again while the bot is not listening yet.
constexpr Millis kConnectRetry{10};
// Header bytes an HTTP reply may have on top of max_line_bytes of body.
constexpr std::uint32_t kHttpHeaderLimit = 64 * 1024;

// The kept-alive connection.
struct HttpConnection {
    explicit HttpConnection(asio::io_context& ctx) : socket(ctx) {}

    asio::ip::tcp::socket socket;
    beast::flat_buffer buffer;
    std::string request;    // the request being written
    bool reusable = false;  // the last reply was complete and the bot keeps the connection
};

// The socket as Beast reads a reply from it, counting the reads the reply takes.
class CountedReads {
public:
    using executor_type = asio::ip::tcp::socket::executor_type;
    explicit CountedReads(asio::ip::tcp::socket& socket) : socket_(socket) {}
    executor_type get_executor() { return socket_.get_executor(); }
    template <class Buffers, class Handler>
    auto async_read_some(const Buffers& buffers, Handler&& handler) {
        ++reads_;
        return socket_.async_read_some(buffers, std::forward<Handler>(handler));
    }
    int reads() const { return reads_; }

private:
    asio::ip::tcp::socket& socket_;
    int reads_ = 0;
};

// A response parser, alive as long as a handler of it is in flight.
struct HttpTransfer {
    explicit HttpTransfer(asio::ip::tcp::socket& socket) : stream(socket) {}
    CountedReads stream;
    http::response_parser<http::string_body> parser;
};

// The bot closed a kept connection before answering: not the bot's fault, try a new one.
bool closed_idle_connection(const boost::system::error_code& ec) {
    return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == asio::error::broken_pipe;
}

// Acknowledge at once instead of delaying: servers that write the header and the body in two
// segments without TCP_NODELAY (Python's http.server) otherwise wait for our delayed ACK
// (Nagle), some 40 ms per reply on a kept-alive connection. Linux clears the flag again after
// a while, so it is set before every read, once the bot was seen to send a reply in pieces (a
// connection starts in Linux's quick-ACK mode, so the first replies are acknowledged at once).
void quick_ack(asio::ip::tcp::socket& socket) {
    const int one = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
}

class HttpChannel final : public Channel {
public:
    explicit HttpChannel(const ChannelSeat& seat) : Channel(seat), retry_timer_(seat.ctx) {}

    bool networked() const override { return true; }
    void prepare(SpawnRequest& request, bool confined) override;
    void attach_remote(const std::string& url) override;
    bool exchange_per_request() const override { return true; }
    bool request(std::string_view text) override;
    void reply_failed() override { end(); }
    void stop() override { end(); }
    void release() override { end(); }

private:
    void connect(std::uint64_t generation);
    void write(std::uint64_t generation, bool reused);
    void written(std::uint64_t generation, bool reused, const boost::system::error_code& ec);
    void read(std::uint64_t generation, bool reused);
    // The request is over or another one began: a handler of `generation` does nothing.
    bool stale(std::uint64_t generation) const { return !events_.pending() || generation_ != generation; }
    void deliver(std::string_view body);  // the body's lines through the framer
    void end();  // closes the connection, stops retrying

    std::uint16_t port_ = 0;  // where a bot the arbiter started serves
    UniqueFd netns_;          // confined: the seat's own network namespace (sockets made in it)
    std::shared_ptr<HttpConnection> connection_;  // open between requests while the bot keeps it alive
    std::uint64_t generation_ = 0;                // bumped per request: older handlers are stale
    std::string target_;                          // the open request's text as path and query
    std::optional<asio::ip::tcp::endpoint> remote_;  // a url= bot; else 127.0.0.1:port
    std::string host_header_;                     // a url= bot: the Host header
    std::string path_ = "/";                      // a url= bot: its path; the request's query follows it
    asio::steady_timer retry_timer_;              // connection refused: try again shortly
    bool replies_in_pieces_ = false;              // a reply came in several reads: quick ACKs from then on
};

}  // namespace

std::unique_ptr<Channel> make_http_channel(const ChannelSeat& seat) { return std::make_unique<HttpChannel>(seat); }

void HttpChannel::prepare(SpawnRequest& request, bool confined) {
    // A confined bot serves in a network of its own, where the arbiter connects from.
    if (confined) netns_ = loopback_network_namespace();
    if (netns_.valid()) request.netns = netns_.get();
    // A free port we choose for the bot to serve on (listen on 127.0.0.1 only), in its network.
    const auto probe = listen_on_loopback(ctx_, 0, netns_.valid() ? netns_.get() : -1);
    port_ = probe->local_endpoint().port();
    tell_address(request, port_, true);
}

void HttpChannel::attach_remote(const std::string& url) {
    // http://HOST[:PORT][/PATH]
    std::string rest = url.substr(std::string_view("http://").size());
    const auto slash = rest.find('/');
    path_ = slash == std::string::npos ? "/" : rest.substr(slash);
    host_header_ = rest.substr(0, slash);
    const auto colon = host_header_.rfind(':');
    const std::string host = colon == std::string::npos ? host_header_ : host_header_.substr(0, colon);
    const std::string port = colon == std::string::npos ? "80" : host_header_.substr(colon + 1);
    boost::system::error_code ec;
    asio::ip::tcp::resolver resolver(ctx_);
    const auto found = resolver.resolve(host, port, ec);
    if (ec || found.empty()) {
        throw UserError("bot '" + launch_.bot.name + "': cannot resolve '" + host_header_ + "': " + ec.message());
    }
    remote_ = found.begin()->endpoint();
}

bool HttpChannel::request(std::string_view text) {
    std::string_view target = text;
    while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.remove_suffix(1);
    target_ = (target.empty() || target.front() != '/') ? "/" + std::string(target) : std::string(target);
    const std::uint64_t generation = ++generation_;
    if (connection_ && connection_->reusable && connection_->socket.is_open()) {
        write(generation, true);
    } else {
        connect(generation);
    }
    return true;
}

void HttpChannel::connect(std::uint64_t generation) {
    if (connection_) {
        boost::system::error_code ignored;
        connection_->socket.close(ignored);
    }
    auto connection = std::make_shared<HttpConnection>(ctx_);
    connection_ = connection;
    const asio::ip::tcp::endpoint endpoint = remote_.value_or(asio::ip::tcp::endpoint(asio::ip::address_v4::loopback(), port_));
    if (netns_.valid()) {
        // A confined bot serves in its own network: the connection is made from in there.
        boost::system::error_code ignored;
        if (UniqueFd socket = tcp_socket_in(netns_.get()); socket.valid())
            connection->socket.assign(endpoint.protocol(), socket.release(), ignored);
    }
    connection->socket.async_connect(endpoint, [this, generation, connection](const boost::system::error_code& ec) {
        if (ec == asio::error::operation_aborted || stale(generation)) return;
        if (ec) {
            // Not listening yet (still loading): try again; the deadline bounds this.
            if (events_.exited()) {
                events_.finish(ReplyStatus::closed, "exited");
                return;
            }
            retry_timer_.expires_after(kConnectRetry);
            retry_timer_.async_wait([this, generation](const boost::system::error_code& ec) {
                if (!ec && !stale(generation)) connect(generation);
            });
            return;
        }
        boost::system::error_code ignored;
        connection->socket.set_option(asio::ip::tcp::no_delay(true), ignored);
        connection->socket.non_blocking(true, ignored);  // a write the socket cannot take at once returns
        write(generation, false);
    });
}

void HttpChannel::write(std::uint64_t generation, bool reused) {
    auto connection = connection_;
    connection->reusable = false;
    connection->buffer.clear();  // nothing a bot sent after its last reply is read as this one
    // As Beast serializes such a request: no Connection field, keep-alive being HTTP/1.1's default.
    // The request text "/?a=1" goes after the bot's path: "/bot.php?a=1" for url=http://h/bot.php.
    connection->request = fmt::format("GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: arbiter\r\n\r\n",
                                      remote_ ? path_ + target_.substr(1) : target_,
                                      remote_ ? host_header_ : fmt::format("127.0.0.1:{}", port_));
    // A request is short: the socket takes it at once, with no completion to wait for. What it
    // does not take is written as it drains.
    boost::system::error_code ec;
    const std::size_t sent = connection->socket.write_some(asio::buffer(connection->request), ec);
    if (!ec && sent == connection->request.size()) return written(generation, reused, ec);
    if (ec && ec != asio::error::would_block) {
        // Judged from the event loop, as every other end of a request.
        return asio::post(ctx_, [this, generation, reused, ec] { written(generation, reused, ec); });
    }
    asio::async_write(connection->socket, asio::buffer(connection->request) + (ec ? 0 : sent),
                      [this, generation, reused, connection](const boost::system::error_code& ec, std::size_t) {
                          written(generation, reused, ec);
                      });
}

void HttpChannel::written(std::uint64_t generation, bool reused, const boost::system::error_code& ec) {
    if (ec == asio::error::operation_aborted || stale(generation)) return;
    if (ec) {
        if (reused && closed_idle_connection(ec)) return connect(generation);
        return events_.finish(ReplyStatus::closed, "connection closed: " + ec.message());
    }
    events_.written();
    read(generation, reused);
}

void HttpChannel::read(std::uint64_t generation, bool reused) {
    auto connection = connection_;
    if (replies_in_pieces_) quick_ack(connection->socket);
    auto transfer = std::make_shared<HttpTransfer>(connection->socket);
    transfer->parser.body_limit(max_line_bytes_);
    transfer->parser.header_limit(kHttpHeaderLimit);
    http::async_read(transfer->stream, connection->buffer, transfer->parser,
                     [this, generation, reused, connection, transfer](const boost::system::error_code& ec, std::size_t bytes) {
                         if (ec == asio::error::operation_aborted || stale(generation)) return;
                         if (ec == http::error::body_limit || ec == http::error::header_limit || ec == http::error::buffer_overflow) {
                             return events_.finish(ReplyStatus::overflow,
                                                 fmt::format("HTTP reply larger than {} bytes of body", max_line_bytes_));
                         }
                         if (ec) {
                             if (reused && bytes == 0 && closed_idle_connection(ec)) return connect(generation);
                             return events_.finish(ReplyStatus::closed,
                                                 bytes == 0 && closed_idle_connection(ec) ? std::string("connection closed without a reply")
                                                                                          : "not a complete HTTP reply: " + ec.message());
                         }
                         if (transfer->stream.reads() > 1) replies_in_pieces_ = true;
                         const auto& response = transfer->parser.get();
                         connection->reusable = transfer->parser.keep_alive();
                         const unsigned status = response.result_int();
                         if (status / 100 != 2) {
                             events_.transcript('#', fmt::format("HTTP status {}{}: no reply", status,
                                                                       status / 100 == 3 ? " (redirects are not followed)" : ""));
                             return deliver("");
                         }
                         deliver(response.body());
                     });
}

void HttpChannel::deliver(std::string_view body) {
    // The body is the reply: its lines go through the framer, and its end ends the reply.
    lines_.clear();
    lines_.append(body);
    if (!body.empty() && body.back() != '\n') lines_.append("\n");
    std::string line;
    while (events_.pending()) {
        const auto next = lines_.next(line);
        if (next == LineSplitter::Next::overflow) {
            events_.finish(ReplyStatus::overflow, fmt::format("line longer than {} bytes", max_line_bytes_));
            return;
        }
        if (next == LineSplitter::Next::need_more) break;
        events_.frame_line(line);
    }
    lines_.clear();
    if (events_.pending()) events_.finish(ReplyStatus::ok, {});
    // The reply is over: its connection is kept for the next request if the bot keeps it.
    retry_timer_.cancel();
    if (!connection_ || !connection_->reusable) end();
}

void HttpChannel::end() {
    if (connection_) {
        boost::system::error_code ignored;
        connection_->socket.close(ignored);
        connection_.reset();
    }
    retry_timer_.cancel();
}

}  // namespace arb::process_table_detail

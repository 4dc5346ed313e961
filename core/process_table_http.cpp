// The ProcessTable's HTTP GET channel (Koehandel; koehandel.md 2.2, seed 002: the server GETs
// the player's URL): the bot serves HTTP, and each request is "GET /<request text> HTTP/1.1".
// The client is Boost.Beast on the table's event loop, kept alone in this file.
//
// - Keep-alive: the connection stays open after a complete reply while the bot allows it. A kept
//   connection the bot closed meanwhile (the server's idle timeout) is replaced once, quietly.
// - Bodies: Content-Length, chunked, or up to the end of the stream (HTTP/1.0 style).
// - Limits: header and body are capped (max_line_bytes of body): a larger reply is an overflow.
// - Redirects are refused, not followed: a 3xx (like any status other than 2xx) is noted in the
//   transcript and answers nothing (an empty reply, the game's default action).
// - Time: connection refused (the bot is still starting) is retried every kConnectRetry until
//   the deadline; the seat's clock bounds connecting, writing and reading together.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <memory>

#include <boost/asio/connect.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "core/process_table_internal.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {

namespace beast = boost::beast;
namespace http = boost::beast::http;

struct HttpConnection {
    explicit HttpConnection(asio::io_context& ctx) : socket(ctx) {}

    asio::ip::tcp::socket socket;
    beast::flat_buffer buffer;
    bool reusable = false;  // the last reply was complete and the bot keeps the connection
};

namespace {

// How often an HTTP seat's port is tried again while the bot is not listening yet.
constexpr Millis kConnectRetry{10};
// Header bytes an HTTP reply may have on top of max_line_bytes of body.
constexpr std::uint32_t kHttpHeaderLimit = 64 * 1024;

// A request, or a response parser, alive as long as a handler of it is in flight.
struct HttpTransfer {
    http::request<http::empty_body> request;
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
// a while, so it is set before every read.
void quick_ack(asio::ip::tcp::socket& socket) {
    const int one = 1;
    ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
}

}  // namespace

void ProcessTableImpl::start_remote_seat(int s) {
    Seat& seat = at(s);
    const std::string& url = seat.launch.bot.url;
    const std::string name = seat.launch.bot.name;
    if (seat.launch.channel != ChannelKind::http_server) {
        throw UserError("bot '" + name + "': url= bots serve HTTP, which this game does not use");
    }
    // http://HOST[:PORT][/PATH]
    std::string rest = url.substr(std::string_view("http://").size());
    const auto slash = rest.find('/');
    HttpExchange& http = seat.channel.http;
    http.path = slash == std::string::npos ? "/" : rest.substr(slash);
    http.host = rest.substr(0, slash);
    const auto colon = http.host.rfind(':');
    const std::string host = colon == std::string::npos ? http.host : http.host.substr(0, colon);
    const std::string port = colon == std::string::npos ? "80" : http.host.substr(colon + 1);
    boost::system::error_code ec;
    asio::ip::tcp::resolver resolver(ctx_);
    const auto found = resolver.resolve(host, port, ec);
    if (ec || found.empty()) throw UserError("bot '" + name + "': cannot resolve '" + http.host + "': " + ec.message());
    http.remote = found.begin()->endpoint();
    seat.process.pid = -1;
    seat.process.group_gone = true;
    seat.process.main_reaped = true;
    transcript(seat, '#', "remote bot at " + url);
}

bool ProcessTableImpl::http_stale(int s, std::uint64_t generation) const {
    const Seat& seat = at(s);
    return !seat.requests.pending() || seat.channel.http.generation != generation;
}

void ProcessTableImpl::http_start(int s) {
    HttpExchange& http = at(s).channel.http;
    const std::uint64_t generation = ++http.generation;
    if (http.connection && http.connection->reusable && http.connection->socket.is_open()) {
        http_write(s, generation, true);
    } else {
        http_connect(s, generation);
    }
}

void ProcessTableImpl::http_connect(int s, std::uint64_t generation) {
    HttpExchange& http = at(s).channel.http;
    if (http.connection) {
        boost::system::error_code ignored;
        http.connection->socket.close(ignored);
    }
    auto connection = std::make_shared<HttpConnection>(ctx_);
    http.connection = connection;
    const asio::ip::tcp::endpoint endpoint =
        http.remote.value_or(asio::ip::tcp::endpoint(asio::ip::address_v4::loopback(), at(s).channel.port));
    if (at(s).channel.netns.valid()) {
        // A confined bot serves in its own network: the connection is made from in there.
        const InNetworkNamespace inside(at(s).channel.netns.get());
        boost::system::error_code ignored;
        connection->socket.open(endpoint.protocol(), ignored);
    }
    connection->socket.async_connect(endpoint, [this, s, generation, connection](const boost::system::error_code& ec) {
        if (ec == asio::error::operation_aborted || http_stale(s, generation)) return;
        Seat& seat = at(s);
        if (ec) {
            // Not listening yet (still loading): try again; the deadline bounds this.
            if (seat.process.main_exited) {
                finish(s, ReplyStatus::closed, "exited");
                return;
            }
            seat.channel.http.retry_timer.expires_after(kConnectRetry);
            seat.channel.http.retry_timer.async_wait([this, s, generation](const boost::system::error_code& ec) {
                if (!ec && !http_stale(s, generation)) http_connect(s, generation);
            });
            return;
        }
        boost::system::error_code ignored;
        connection->socket.set_option(asio::ip::tcp::no_delay(true), ignored);
        http_write(s, generation, false);
    });
}

void ProcessTableImpl::http_write(int s, std::uint64_t generation, bool reused) {
    Seat& seat = at(s);
    auto connection = seat.channel.http.connection;
    connection->reusable = false;
    connection->buffer.clear();  // nothing a bot sent after its last reply is read as this one
    auto transfer = std::make_shared<HttpTransfer>();
    transfer->request.method(http::verb::get);
    // The request text "/?a=1" goes after the bot's path: "/bot.php?a=1" for url=http://h/bot.php.
    const std::string& target = seat.requests.active->http_target;
    const HttpExchange& exchange = seat.channel.http;
    transfer->request.target(exchange.remote ? exchange.path + target.substr(1) : target);
    transfer->request.version(11);
    transfer->request.set(http::field::host, exchange.remote ? exchange.host : fmt::format("127.0.0.1:{}", seat.channel.port));
    transfer->request.set(http::field::user_agent, "arbiter");
    transfer->request.keep_alive(true);
    http::async_write(connection->socket, transfer->request,
                      [this, s, generation, reused, connection, transfer](const boost::system::error_code& ec, std::size_t) {
                          if (ec == asio::error::operation_aborted || http_stale(s, generation)) return;
                          if (ec) {
                              if (reused && closed_idle_connection(ec)) return http_connect(s, generation);
                              return finish(s, ReplyStatus::closed, "connection closed: " + ec.message());
                          }
                          if (!at(s).requests.active->write_done) on_written(s);
                          http_read(s, generation, reused);
                          (void)transfer;  // the request must outlive the write
                      });
}

void ProcessTableImpl::http_read(int s, std::uint64_t generation, bool reused) {
    auto connection = at(s).channel.http.connection;
    quick_ack(connection->socket);
    auto transfer = std::make_shared<HttpTransfer>();
    transfer->parser.body_limit(options_.limits.max_line_bytes);
    transfer->parser.header_limit(kHttpHeaderLimit);
    http::async_read(connection->socket, connection->buffer, transfer->parser,
                     [this, s, generation, reused, connection, transfer](const boost::system::error_code& ec, std::size_t bytes) {
                         if (ec == asio::error::operation_aborted || http_stale(s, generation)) return;
                         if (ec == http::error::body_limit || ec == http::error::header_limit || ec == http::error::buffer_overflow) {
                             return finish(s, ReplyStatus::overflow,
                                           fmt::format("HTTP reply larger than {} bytes of body", options_.limits.max_line_bytes));
                         }
                         if (ec) {
                             if (reused && bytes == 0 && closed_idle_connection(ec)) return http_connect(s, generation);
                             return finish(s, ReplyStatus::closed,
                                           bytes == 0 && closed_idle_connection(ec) ? std::string("connection closed without a reply")
                                                                                    : "not a complete HTTP reply: " + ec.message());
                         }
                         const auto& response = transfer->parser.get();
                         connection->reusable = transfer->parser.keep_alive();
                         const unsigned status = response.result_int();
                         if (status / 100 != 2) {
                             transcript(at(s), '#', fmt::format("HTTP status {}{}: no reply", status,
                                                                 status / 100 == 3 ? " (redirects are not followed)" : ""));
                             return http_deliver(s, "");
                         }
                         http_deliver(s, response.body());
                     });
}

void ProcessTableImpl::http_deliver(int s, std::string_view body) {
    Seat& seat = at(s);
    // The body is the reply: its lines go through the framer, and its end ends the reply.
    LineSplitter& lines = seat.channel.lines;
    lines.clear();
    lines.append(body);
    if (!body.empty() && body.back() != '\n') lines.append("\n");
    std::string line;
    const ActiveRequest& active = *seat.requests.active;
    while (!active.done) {
        const auto next = lines.next(line);
        if (next == LineSplitter::Next::overflow) {
            finish(s, ReplyStatus::overflow, fmt::format("line longer than {} bytes", options_.limits.max_line_bytes));
            return;
        }
        if (next == LineSplitter::Next::need_more) break;
        frame_line(s, line);
    }
    lines.clear();
    if (!active.done) finish(s, ReplyStatus::ok);
}

void ProcessTableImpl::http_after_reply(int s, bool ok) {
    HttpExchange& http = at(s).channel.http;
    http.retry_timer.cancel();
    if (!ok || !http.connection || !http.connection->reusable) http_end(s);
}

void ProcessTableImpl::http_end(int s) {
    HttpExchange& http = at(s).channel.http;
    if (http.connection) {
        boost::system::error_code ignored;
        http.connection->socket.close(ignored);
        http.connection.reset();
    }
    http.retry_timer.cancel();
}

}  // namespace arb::process_table_detail

// The ProcessTable's HTTP GET channel (Koehandel; koehandel.md 2.2, seed 002: the server GETs
// the player's URL): the bot serves HTTP on a loopback port, and each request is a new
// connection with "GET /<request text> HTTP/1.0". This is a small hand-written HTTP/1.0 client,
// kept alone in this file so that it can be replaced whole.
//
// Connection refused (the bot is still starting) is retried every kConnectRetry until the
// deadline, so accepting the connection counts against the time. The reply ends at end of
// stream or when Content-Length bytes arrived; the body's lines go through the framer, and the
// end of the body ends the reply. A non-200 status is noted in the transcript.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>

#include "core/nonblocking_read.hpp"
#include "core/process_table_internal.hpp"

namespace arb::process_table_detail {
namespace {

// How often an HTTP seat's port is tried again while the bot is not listening yet.
constexpr Millis kConnectRetry{10};
// Header bytes an HTTP reply may have on top of max_line_bytes of body.
constexpr std::size_t kHttpHeaderAllowance = 64 * 1024;

// The Content-Length of a response whose header ends at header_end, if it has one.
std::optional<std::size_t> content_length(const std::string& response, std::size_t header_end) {
    std::string head = response.substr(0, header_end);
    std::transform(head.begin(), head.end(), head.begin(), ::tolower);
    const auto cl = head.find("\r\ncontent-length:");
    if (cl == std::string::npos) return std::nullopt;
    return std::strtoull(head.c_str() + cl + 17, nullptr, 10);
}

}  // namespace

void ProcessTableImpl::http_start(int s) {
    HttpExchange& http = at(s).channel.http;
    http.response.clear();
    http.socket = std::make_unique<asio::ip::tcp::socket>(ctx_);
    const asio::ip::tcp::endpoint endpoint(asio::ip::address_v4::loopback(), at(s).channel.port);
    http.socket->async_connect(endpoint, [this, s](const boost::system::error_code& ec) {
        Seat& seat = at(s);
        if (!seat.requests.pending() || ec == asio::error::operation_aborted) return;
        if (ec) {
            // Not listening yet (still loading): try again; the deadline bounds this.
            if (seat.process.main_exited) {
                finish(s, ReplyStatus::closed, "exited");
                return;
            }
            seat.channel.http.retry_timer.expires_after(kConnectRetry);
            seat.channel.http.retry_timer.async_wait([this, s](const boost::system::error_code& ec) {
                if (!ec && at(s).requests.pending()) http_start(s);
            });
            return;
        }
        seat.channel.http.socket->set_option(asio::ip::tcp::no_delay(true));
        boost::system::error_code ignored;
        seat.channel.http.socket->non_blocking(true, ignored);  // http_read() must never block
        http_write(s);
    });
}

void ProcessTableImpl::http_write(int s) {
    Seat& seat = at(s);
    auto request = std::make_shared<std::string>(fmt::format("GET {} HTTP/1.0\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                                                             seat.requests.active->http_target, seat.channel.port));
    asio::async_write(*seat.channel.http.socket, asio::buffer(*request),
                      [this, s, request](const boost::system::error_code& ec, std::size_t) {
                          if (!at(s).requests.pending() || ec == asio::error::operation_aborted) return;
                          if (ec) {
                              finish(s, ReplyStatus::closed, "connection closed: " + ec.message());
                              return;
                          }
                          on_written(s);
                          http_read(s);
                      });
}

void ProcessTableImpl::http_read(int s) {
    at(s).channel.http.socket->async_wait(asio::ip::tcp::socket::wait_read, [this, s](const boost::system::error_code& ec) {
        Seat& seat = at(s);
        HttpExchange& http = seat.channel.http;
        if (!seat.requests.pending() || ec == asio::error::operation_aborted) return;
        const std::size_t cap = options_.limits.max_line_bytes + kHttpHeaderAllowance;
        ReadStatus status = ReadStatus::eof;  // a failed wait ends the response like end of stream
        if (!ec) {
            status = read_available(http.socket->native_handle(), chunk_, kReadsPerWakeup, [&](std::string_view bytes) {
                http.response.append(bytes);
                return http.response.size() <= cap;
            });
        }
        if (http.response.size() > cap) {
            finish(s, ReplyStatus::overflow, "HTTP reply too large");
            return;
        }
        // Complete at end of stream, or when Content-Length is satisfied.
        if (status == ReadStatus::eof || http_complete(s)) {
            http_finish_body(s);
        } else {
            http_read(s);
        }
    });
}

bool ProcessTableImpl::http_complete(int s) const {
    const std::string& response = at(s).channel.http.response;
    const auto header_end = response.find("\r\n\r\n");
    if (header_end == std::string::npos) return false;
    const auto length = content_length(response, header_end);
    return length && response.size() >= header_end + 4 + *length;
}

void ProcessTableImpl::http_finish_body(int s) {
    Seat& seat = at(s);
    const std::string& response = seat.channel.http.response;
    const auto header_end = response.find("\r\n\r\n");
    if (response.rfind("HTTP/", 0) != 0 || header_end == std::string::npos) {
        finish(s, ReplyStatus::closed, "not an HTTP reply");
        return;
    }
    const std::string status_line = response.substr(0, response.find("\r\n"));
    if (status_line.find(" 200") == std::string::npos) transcript(seat, '#', "HTTP status: " + status_line);
    std::string body = response.substr(header_end + 4);
    if (const auto length = content_length(response, header_end)) body.resize(std::min(body.size(), *length));
    // The body is the reply: its lines go through the framer, and its end ends the reply.
    if (!body.empty() && body.back() != '\n') body += '\n';
    LineSplitter& lines = seat.channel.lines;
    lines.clear();
    lines.append(body);
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

void ProcessTableImpl::http_end(int s) {
    HttpExchange& http = at(s).channel.http;
    if (http.socket) {
        boost::system::error_code ignored;
        http.socket->close(ignored);
    }
    http.retry_timer.cancel();
}

}  // namespace arb::process_table_detail

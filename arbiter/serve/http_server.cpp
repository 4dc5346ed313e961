#include "arbiter/serve/http_server.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <array>
#include <list>
#include <map>
#include <set>
#include <memory>
#include <optional>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "arbiter/serve/serve_routes.hpp"
#include "core/user_error.hpp"

namespace arb::serve {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Message = std::shared_ptr<const std::string>;

constexpr std::size_t kHeaderLimit = 8 * 1024;
constexpr auto kRequestTimeout = std::chrono::seconds(30);

class Server;

// One connection: requests one at a time (keep-alive), or, once it asked for a stream, events.
// What it holds is bounded: the request buffer, the response being written, and at most one
// event waiting behind the one being written (a newer state replaces it: a slow client skips
// states instead of queueing them).
class Session : public std::enable_shared_from_this<Session> {
public:
    Session(tcp::socket socket, Server& server);
    ~Session();
    void start() { read_request(); }
    tcp::socket& socket() { return stream_.socket(); }
    void push(const Message& message);
    void close() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
        stream_.socket().close(ec);
    }
    const std::string& topic() const { return topic_; }

private:
    void read_request();
    void on_request(beast::error_code ec);
    void respond(Reply reply, bool keep_alive);
    void start_stream(const std::string& topic);
    void write_next();
    void watch_for_close();

    beast::tcp_stream stream_;
    Server& server_;
    beast::flat_buffer buffer_{kHeaderLimit};
    std::optional<http::request_parser<http::empty_body>> parser_;
    std::shared_ptr<http::response<http::string_body>> response_;
    std::string topic_;  // "" until it streams
    Message writing_, waiting_;
    std::array<char, 256> discard_{};
};

class Server {
public:
    explicit Server(const ServeOptions& options)
        : options_(options), routes_(options), acceptor_(io_), signals_(io_, SIGINT, SIGTERM), timer_(io_) {}

    int run();
    Routes& routes() { return routes_; }
    void subscribe(const std::shared_ptr<Session>& s) {
        streams_.push_back(s);
        if (const auto m = last_.find(s->topic()); m != last_.end()) s->push(m->second);
        else tick_soon();  // a match page's first state is made for it at once
    }
    std::size_t& sessions() { return sessions_; }

private:
    void accept();
    void tick();
    void tick_soon() {
        if (!soon_) {
            soon_ = true;
            asio::post(io_, [this] {
                soon_ = false;
                publish();
            });
        }
    }
    void publish();
    void stop();

    const ServeOptions& options_;
    Routes routes_;
    std::size_t sessions_ = 0;  // before io_: sessions still queued in it count down as it goes
    asio::io_context io_;
    tcp::acceptor acceptor_;
    asio::signal_set signals_;
    asio::steady_timer timer_;
    std::list<std::weak_ptr<Session>> streams_;
    std::map<std::string, Message> last_;  // the last event of each topic
    bool soon_ = false;
    bool stopping_ = false;
};

Session::Session(tcp::socket socket, Server& server) : stream_(std::move(socket)), server_(server) {
    ++server_.sessions();
}

Session::~Session() { --server_.sessions(); }

void Session::read_request() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(0);  // GET only: a request with a body is refused by the parser
    stream_.expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_request(ec); });
}

void Session::on_request(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted) {
        close();
        return;
    }
    if (ec) {  // a request the parser refused (too long, a body, not HTTP): said once, then closed
        respond({400, "text/plain; charset=utf-8", "bad request: " + ec.message() + "\n", std::nullopt}, false);
        return;
    }
    const auto& request = parser_->get();
    if (request.method() != http::verb::get) {
        respond({405, "text/plain; charset=utf-8", "only GET is served\n", std::nullopt}, false);
        return;
    }
    Reply reply;
    try {
        reply = server_.routes().handle(std::string(request.target()));
    } catch (const std::exception& e) {
        reply = {500, "text/plain; charset=utf-8", std::string("could not answer: ") + e.what() + "\n", std::nullopt};
    }
    if (reply.stream) {
        start_stream(*reply.stream);
        return;
    }
    respond(std::move(reply), request.keep_alive());
}

void Session::respond(Reply reply, bool keep_alive) {
    response_ = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(reply.status), 11);
    response_->set(http::field::server, "arbiter");
    response_->set(http::field::content_type, reply.content_type);
    response_->set(http::field::cache_control, "no-store");
    response_->set("X-Content-Type-Options", "nosniff");
    response_->keep_alive(keep_alive);
    response_->body() = std::move(reply.body);
    response_->prepare_payload();
    http::async_write(stream_, *response_, [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
        self->response_.reset();
        if (ec || !keep_alive) self->close();
        else self->read_request();
    });
}

void Session::start_stream(const std::string& topic) {
    topic_ = topic;
    stream_.expires_never();
    // The body runs until either side closes, so no length and no chunking are needed.
    writing_ = std::make_shared<const std::string>(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 2000\n\n");
    asio::async_write(stream_.socket(), asio::buffer(*writing_),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                          self->writing_.reset();
                          if (ec) return self->close();
                          self->server_.subscribe(self);
                          self->watch_for_close();
                          self->write_next();
                      });
}

// A stream's client sends nothing more: a read ends when it goes away, and closes our side.
void Session::watch_for_close() {
    stream_.socket().async_read_some(asio::buffer(discard_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (ec) self->close();
        else self->watch_for_close();
    });
}

void Session::push(const Message& message) {
    waiting_ = message;
    if (!writing_) write_next();
}

void Session::write_next() {
    if (writing_ || !waiting_) return;
    writing_ = std::move(waiting_);
    waiting_.reset();
    asio::async_write(stream_.socket(), asio::buffer(*writing_),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                          self->writing_.reset();
                          if (ec) return self->close();
                          self->write_next();
                      });
}

int Server::run() {
    beast::error_code ec;
    const auto address = asio::ip::make_address(options_.address, ec);
    if (ec) throw UserError(fmt::format("--address '{}' is not an IP address", options_.address));
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(options_.port));
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw UserError(fmt::format("cannot listen on {}:{}: {}", options_.address, options_.port, ec.message()));
    signals_.async_wait([this](beast::error_code e, int) {
        if (!e) stop();
    });
    publish();
    tick();
    accept();
    if (options_.listening) options_.listening(options_.address, acceptor_.local_endpoint().port());
    io_.run();
    return 0;
}

void Server::accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (stopping_) return;
        if (!ec) {
            if (sessions_ >= options_.max_clients) {
                // Answered at once and closed, so that a flood costs no more than its sockets.
                static const std::string busy =
                    "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                beast::error_code ignored;
                asio::write(socket, asio::buffer(busy), ignored);
                socket.close(ignored);
            } else {
                std::make_shared<Session>(std::move(socket), *this)->start();
            }
        }
        accept();
    });
}

void Server::tick() {
    timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(options_.tick_s)));
    timer_.async_wait([this](beast::error_code ec) {
        if (ec || stopping_) return;
        publish();
        tick();
    });
}

// Computes each topic that someone follows once, and sends it to its followers if it changed.
void Server::publish() {
    std::set<std::string> topics = {""};
    for (auto it = streams_.begin(); it != streams_.end();) {
        if (auto s = it->lock()) topics.insert(s->topic()), ++it;
        else it = streams_.erase(it);
    }
    try {
        routes_.refresh();
    } catch (const std::exception& e) {
        spdlog::warn("serve: {}", e.what());
    }
    for (const std::string& topic : topics) {
        std::string data;
        try {
            data = routes_.event(topic);
        } catch (const std::exception& e) {
            spdlog::warn("serve: {}", e.what());
            continue;
        }
        auto& last = last_[topic];
        if (last && *last == data) continue;
        last = std::make_shared<const std::string>(data);
        for (const auto& weak : streams_)
            if (auto s = weak.lock(); s && s->topic() == topic) s->push(last);
    }
    std::erase_if(last_, [&](const auto& t) { return !topics.count(t.first); });
}

void Server::stop() {
    stopping_ = true;
    beast::error_code ec;
    acceptor_.close(ec);
    timer_.cancel();
    for (const auto& weak : streams_)
        if (auto s = weak.lock()) s->close();
    io_.stop();
}

// Below the tournaments it shows: a page is worth a second's lag, a match is not worth a slower
// move. SCHED_BATCH keeps the server's wake-ups (a tick, 1,000 pages written) from preempting the
// referee or a bot in the middle of an exchange; the nice value gives it a small share of a busy
// core. Both only lower this process's priority, which needs no privilege.
void run_below_tournaments(int nice) {
    if (nice <= 0) return;
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && current < nice && setpriority(PRIO_PROCESS, 0, nice) != 0)
        spdlog::warn("serve: cannot lower its priority: {}", std::strerror(errno));
    const sched_param normal{};
    if (sched_setscheduler(0, SCHED_BATCH, &normal) != 0)
        spdlog::warn("serve: cannot take the batch scheduling policy: {}", std::strerror(errno));
}

}  // namespace

int run_server(const ServeOptions& options) {
    run_below_tournaments(options.nice);
    // A client is a socket: as many as the hard limit allows, so that max_clients is the bound.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    Server server(options);
    return server.run();
}

}  // namespace arb::serve

// The channels' common parts: make_channel, and where a TCP or HTTP bot finds the arbiter (a
// loopback port in its environment and its command line).
#include "core/channel/channel.hpp"

#include <utility>

#include "core/confine/sandbox.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {

std::unique_ptr<Channel> make_channel(ChannelKind kind, const ChannelSeat& seat) {
    switch (kind) {
        case ChannelKind::stdio: return make_stdio_channel(seat);
        case ChannelKind::tcp_client: return make_tcp_channel(seat);
        case ChannelKind::http_server: return make_http_channel(seat);
    }
    return make_stdio_channel(seat);
}

void Channel::attach_remote(const std::string&) {
    throw UserError("bot '" + launch_.bot.name + "': url= bots serve HTTP, which this game does not use");
}

std::unique_ptr<asio::ip::tcp::acceptor> listen_on_loopback(asio::io_context& ctx, std::uint16_t port, int netns) {
    const asio::ip::tcp::endpoint at(asio::ip::address_v4::loopback(), port);
    auto acceptor = std::make_unique<asio::ip::tcp::acceptor>(ctx);
    boost::system::error_code ec;
    if (netns < 0) {
        acceptor->open(at.protocol(), ec);
    } else if (UniqueFd socket = tcp_socket_in(netns); socket.valid()) {
        acceptor->assign(at.protocol(), socket.release(), ec);
    } else {
        ec.assign(errno, boost::system::system_category());
    }
    if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor->bind(at, ec);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw UserError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message());
    return acceptor;
}

// The bot learns where to talk from ARBITER_HOST/ARBITER_PORT (and ARBITER_URL for HTTP) or from
// {host}, {port}, {url} in its command line: the originals had the address configured in the
// client (smartdog.md 9: port 3002; koehandel.md 2.2: a URL). The seat secret may also be wanted
// on the command line ({token}).
void tell_address(SpawnRequest& request, std::uint16_t port_number, bool with_url) {
    const auto token_env = request.env.find("ARBITER_TOKEN");
    const std::string token = token_env == request.env.end() ? "" : token_env->second;
    const std::string host = "127.0.0.1";
    const std::string port = std::to_string(port_number);
    const std::string url = "http://" + host + ":" + port + "/";
    request.env["ARBITER_HOST"] = host;
    request.env["ARBITER_PORT"] = port;
    if (with_url) request.env["ARBITER_URL"] = url;
    for (std::size_t i = 1; i < request.argv.size(); ++i) {
        for (const auto& [key, value] : {std::pair<std::string, std::string>{"{host}", host}, {"{port}", port}, {"{url}", url}, {"{token}", token}}) {
            for (auto at = request.argv[i].find(key); at != std::string::npos; at = request.argv[i].find(key, at + value.size())) {
                request.argv[i].replace(at, key.size(), value);
            }
        }
    }
}

}  // namespace arb::process_table_detail

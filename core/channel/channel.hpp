#pragma once
// A seat's channel: how a request reaches the bot and how its reply comes back. One class per
// ChannelKind (core/table_settings.hpp), each behind the same interface, which the seat's
// exchange (core/table/seat_exchange.hpp) calls without asking which kind it has:
//   channel_lines.cpp  what stdio and TCP share (LineChannel: the outbox written as the bot reads,
//                      replies cut into lines and framed); the stdio channel (the bot's pipes)
//   channel_tcp.cpp    loopback TCP, the bot connects (smart-dog); the shared port of `join TOKEN`
//   channel_http.cpp   HTTP GET to a bot that serves (Koehandel), on Boost.Beast
//   channel.cpp        make_channel; where a TCP or HTTP bot finds the arbiter
// A channel reports to its seat's exchange through ChannelEvents. Internal to the ProcessTable's
// files: Asio stays out of every other header.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "core/confine/bot_spawn.hpp"
#include "core/channel/line_splitter.hpp"
#include "core/seat.hpp"
#include "core/seat_launch.hpp"

namespace arb::process_table_detail {

namespace asio = boost::asio;
using Descriptor = std::unique_ptr<asio::posix::stream_descriptor>;

constexpr std::size_t kReadChunk = 64 * 1024;
// Reads per wake-up before yielding to other seats (fairness under a flooding bot).
constexpr int kReadsPerWakeup = 16;
// A bot that does not read its input cannot make us buffer without bound.
constexpr std::size_t kMaxOutbox = 16u << 20;

// What a channel reports to its seat's exchange (core/table/seat_exchange.hpp), which owns the
// request: the one seat's, so no seat index; a channel never asks the table anything.
class ChannelEvents {
public:
    // The seat plays on (not retired).
    virtual bool playing() const = 0;
    // The table closes: what the bot writes from now on is read and dropped.
    virtual bool closing() const = 0;
    // A request is open and not answered yet.
    virtual bool pending() const = 0;
    // ... and its text is completely written: what arrives now belongs to its reply.
    virtual bool reading() const = 0;
    // The bot's main process has exited.
    virtual bool exited() const = 0;
    // The open request's text is now completely written: its clock starts. false when there is
    // no request, or it was written already.
    virtual bool written() = 0;
    // One line of the reply through the request's framer, which may end the reply.
    virtual void frame_line(std::string& line) = 0;
    // The open request ends.
    virtual void finish(ReplyStatus status, std::string why) = 0;
    // The channel broke outside a request (a bot that does not read, or whose input closed).
    virtual void broke(SeatStatus why, std::string detail) = 0;
    // Why a channel closed: the bot's exit ("exited with code 3") when it is gone, else `otherwise`.
    virtual std::string exit_or(std::string otherwise) = 0;
    // A line of the match transcript: '>' sent, '<' received, '#' an event.
    virtual void transcript(char direction, std::string_view text) = 0;

protected:
    ~ChannelEvents() = default;
};

class SharedPort;

// Memory for the one read a channel keeps in flight. Asio allocates each operation through its
// handler's allocator; its default recycles memory only inside a running loop, and a request's
// read starts from ask(), outside it: without this, a malloc and a free per round trip. Owned by
// the table and declared before its io_context, so that an operation still queued when a channel
// goes is freed into memory that is still there.
class ReadOpMemory {
public:
    void* allocate(std::size_t size) {
        if (!used_ && size <= sizeof bytes_) {
            used_ = true;
            return bytes_;
        }
        return ::operator new(size);
    }
    void deallocate(void* p) {
        if (p == bytes_) {
            used_ = false;
            return;
        }
        ::operator delete(p);
    }

private:
    alignas(std::max_align_t) unsigned char bytes_[256];
    bool used_ = false;
};

// The allocator that hands out a ReadOpMemory (asio::bind_allocator).
template <class T>
struct ReadOpAllocator {
    using value_type = T;
    explicit ReadOpAllocator(ReadOpMemory& memory) : memory(&memory) {}
    template <class U>
    ReadOpAllocator(const ReadOpAllocator<U>& other) : memory(other.memory) {}  // NOLINT: rebinding
    T* allocate(std::size_t n) { return static_cast<T*>(memory->allocate(sizeof(T) * n)); }
    void deallocate(T* p, std::size_t) { memory->deallocate(p); }
    template <class U>
    bool operator==(const ReadOpAllocator<U>& other) const { return memory == other.memory; }
    ReadOpMemory* memory;
};

// What a channel is made with: its seat and the table's shared parts. Everything here outlives it.
struct ChannelSeat {
    ChannelEvents& events;
    asio::io_context& ctx;
    const SeatLaunch& launch;
    std::size_t max_line_bytes = 0;
    std::span<char> scratch;   // the table's read buffer, for reads that complete at once
    SharedPort& shared_port;   // TCP seats seated by `join TOKEN`
    ReadOpMemory& read_memory;  // for the read a line channel keeps in flight
};

class Channel {
public:
    explicit Channel(const ChannelSeat& seat)
        : events_(seat.events), ctx_(seat.ctx), launch_(seat.launch),
          max_line_bytes_(seat.max_line_bytes), scratch_(seat.scratch), read_memory_(seat.read_memory),
          lines_(seat.max_line_bytes) {}
    virtual ~Channel() = default;
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;

    // ---- start and attach
    // Before the bot starts: where it finds the arbiter (its environment and command line) and,
    // when `confined`, the network of its own it runs in.
    virtual void prepare(SpawnRequest& /*request*/, bool /*confined*/) {}
    // The bot talks over the network (a sandbox keeps its loopback reachable).
    virtual bool networked() const { return false; }
    // The bot runs: a channel takes the pipes it talks over (stdio: stdin and stdout) and leaves
    // the others to the table (stdout then goes to the seat's log, stdin is closed).
    virtual void attach(SpawnedBot& /*bot*/) {}
    // A url= bot that already serves: no process; only an HTTP channel talks to one.
    virtual void attach_remote(const std::string& url);

    // ---- write a request
    // Each request is an exchange of its own (HTTP): a notification is a request too, bounded
    // like one, and a failed request fails alone: the seat plays on while its bot runs.
    virtual bool exchange_per_request() const { return false; }
    // Starts the open request: its text goes out (as much as the bot takes now, the rest as it
    // reads); the channel reports the write and the reply to the host. false: the input broke.
    virtual bool request(std::string_view text) = 0;
    // Text that answers nothing (Table::send), on a channel whose requests are not exchanges.
    // A bot that does not read, or whose input broke, is retired.
    virtual void notify(std::string_view /*text*/) {}
    // Request::fresh_reply: the lines the bot sent before the request, dropped into `reply`.
    virtual void drop_earlier_lines(Reply& /*reply*/) {}

    // ---- read and frame the reply
    // A last look before a deadline passes: what has arrived goes through the framer.
    virtual void read_now() {}
    // The bot exited while a request was open: what it wrote before goes through the framer.
    virtual void read_after_exit() {}
    // The open request failed (a timeout, a broken channel, a reply over the cap): an exchange
    // of its own is closed, so that a late answer is never read as a later reply.
    virtual void reply_failed() {}
    // The received text of an unfinished reply (quoted in a failure's details).
    std::string_view unfinished() const { return lines_.pending(); }

    // ---- close
    // The table closes: `quit_text` if not empty (the bot may still read), then end of input;
    // what the bot writes from now on is read and dropped, so that it can exit.
    virtual void quit(std::string_view /*quit_text*/) {}
    // The seat is retired: end of input, nothing queued is sent, no exchange goes on.
    virtual void stop() {}
    // Every process of the seat is gone: the channel's descriptors are closed.
    virtual void release() {}

protected:
    ChannelEvents& events_;
    asio::io_context& ctx_;
    const SeatLaunch& launch_;
    const std::size_t max_line_bytes_;
    std::span<char> scratch_;
    ReadOpMemory& read_memory_;
    LineSplitter lines_;  // received text cut into lines
};

// The channel of `kind` for one seat.
std::unique_ptr<Channel> make_channel(ChannelKind kind, const ChannelSeat& seat);
std::unique_ptr<Channel> make_stdio_channel(const ChannelSeat& seat);  // channel_lines.cpp
std::unique_ptr<Channel> make_tcp_channel(const ChannelSeat& seat);    // channel_tcp.cpp
std::unique_ptr<Channel> make_http_channel(const ChannelSeat& seat);   // channel_http.cpp

// ---- what TCP and HTTP seats share (channel.cpp) -------------------------------------------------

// The loopback listener of a TCP seat, on `port` (0 = a free one). Throws UserError.
// `netns` >= 0: in that network namespace (a confined seat's own).
std::unique_ptr<asio::ip::tcp::acceptor> listen_on_loopback(asio::io_context& ctx, std::uint16_t port, int netns = -1);

// Tells the bot where the arbiter is: ARBITER_HOST, ARBITER_PORT (and ARBITER_URL when
// `url`) in its environment, and {host}, {port}, {url}, {token} in its command line.
void tell_address(SpawnRequest& request, std::uint16_t port, bool url);

class TcpChannel;

// The shared port: TCP seats whose bots carry a secret (ARBITER_TOKEN) and ask for the same fixed
// port share one listener, unless each has a network of its own (confined). A connection is
// seated by its first line, `join TOKEN [HUB]` (channel_tcp.cpp).
class SharedPort {
public:
    SharedPort(asio::io_context& ctx, const std::vector<SeatLaunch>& launches);

    // Whether the seat of `launch` shares its port with another token seat.
    bool shared(const SeatLaunch& launch) const;
    // The port, listened on from the first seat that shares it.
    std::uint16_t listen(std::uint16_t port);
    // A seat that waits for its `join TOKEN`, in seat order.
    void wait_for(TcpChannel& channel) { waiting_.push_back(&channel); }
    // Accepts connections on every shared listener until close().
    void accept_all();
    // The table closes: no connection is accepted or seated any more.
    void close() { open_ = false; }

private:
    void accept(std::size_t listener);
    void read_join(std::shared_ptr<asio::ip::tcp::socket> socket, std::shared_ptr<std::string> received);
    void route(std::shared_ptr<asio::ip::tcp::socket> socket, std::string received);

    asio::io_context& ctx_;
    bool open_ = true;
    std::vector<std::uint16_t> token_ports_;  // one entry per token seat with a fixed port
    std::vector<std::unique_ptr<asio::ip::tcp::acceptor>> listeners_;
    std::vector<bool> accepting_;
    std::vector<TcpChannel*> waiting_;
    int unjoined_ = 0;  // connections that have not sent their first line yet
};

}  // namespace arb::process_table_detail

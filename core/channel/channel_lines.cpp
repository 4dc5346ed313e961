// The line channels (core/channel/channel_lines.hpp) and the stdio channel: requests on the bot's stdin,
// replies on its stdout.
//
// How a request goes: the text is written without blocking (the rest when the pipe has room);
// the clock starts when the write completes (ChannelEvents::written); stdout bytes are cut into
// lines by LineSplitter and fed to the framer until it ends the reply, the bot closes its output
// or a line exceeds the cap. A deadline or an exit makes the table look once more (read_now,
// read_after_exit), so a reply that arrived in time is never a false timeout.
#include "core/channel/channel_lines.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include <boost/asio/bind_allocator.hpp>

#include <fmt/format.h>

#include "core/channel/nonblocking_read.hpp"
#include "core/utf8_text.hpp"

namespace arb::process_table_detail {

bool LineChannel::request(std::string_view text) {
    outbox_.append(text);
    if (!flush()) return false;
    watch();
    // Lines already buffered from earlier output may complete the reply at once.
    if (events_.reading()) feed();
    return true;
}

void LineChannel::notify(std::string_view text) {
    outbox_.append(text);
    if (outbox_.size() - outbox_sent_ > kMaxOutbox) {
        events_.broke(SeatStatus::killed, "does not read its input");
        return;
    }
    if (!flush()) events_.broke(SeatStatus::crashed, events_.exit_or("input closed"));
}

void LineChannel::attach_streams(int in, int out) {
    in_ = std::make_unique<asio::posix::stream_descriptor>(ctx_, in);
    out_ = std::make_unique<asio::posix::stream_descriptor>(ctx_, out);
}

bool LineChannel::flush() {
    if (connecting() && !in_) return true;  // sent once the bot has connected
    if (!in_ || !in_->is_open()) return false;
    const int fd = in_->native_handle();
    while (outbox_sent_ < outbox_.size()) {
        const ssize_t n = ::write(fd, outbox_.data() + outbox_sent_, outbox_.size() - outbox_sent_);
        if (n > 0) {
            outbox_sent_ += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!write_waiting_) {
                write_waiting_ = true;
                in_->async_wait(asio::posix::stream_descriptor::wait_write, [this](const boost::system::error_code& ec) {
                    write_waiting_ = false;
                    if (ec || !events_.playing()) return;
                    if (flush()) return;
                    if (events_.pending()) {
                        events_.finish(ReplyStatus::closed, events_.exit_or("input closed"));
                    } else {
                        events_.broke(SeatStatus::crashed, events_.exit_or("input closed"));
                    }
                });
            }
            return true;
        }
        return false;  // EPIPE: the bot closed its input or exited
    }
    outbox_.clear();
    outbox_sent_ = 0;
    if (events_.written()) feed();
    return true;
}

void LineChannel::watch() {
    if (out_waiting_ || out_eof_ || !out_ || !out_->is_open()) return;
    out_waiting_ = true;
    // async_read_some rather than a readiness wait: Asio then re-arms nothing per request (no
    // epoll_ctl), so a round trip costs write + epoll_wait + read, as close to a raw pipe as an
    // event loop gets (docs/benchmarks/core.md). This is the hot path, so it is not the
    // read_available() loop that the slower paths share; its operation lives in read_memory_.
    auto on_read = [this](const boost::system::error_code& ec, std::size_t n) {
        out_waiting_ = false;
        if (ec == asio::error::operation_aborted) return;
        if (ec) out_eof_ = true;  // end of file, or an error that is as good as one
        const bool discard = events_.closing() || !events_.playing();
        if (discard) {
            watch();
            return;
        }
        lines_.append(std::string_view(out_buffer_.data(), n));
        if (events_.reading()) feed();
        if (events_.pending()) {
            if (out_eof_) {
                events_.finish(ReplyStatus::closed, events_.exit_or("closed its output"));
            } else {
                watch();
            }
        }
    };
    out_->async_read_some(asio::buffer(out_buffer_), asio::bind_allocator(ReadOpAllocator<char>(read_memory_), on_read));
}

void LineChannel::read() {
    if (out_eof_ || !out_ || !out_->is_open()) return;
    // Stop at the cap: the splitter reports overflow; reading more would only grow memory.
    if (lines_.buffered() > max_line_bytes_) return;
    const ReadStatus status = read_available(out_->native_handle(), scratch_, kReadsPerWakeup, [&](std::string_view bytes) {
        lines_.append(bytes);
        return lines_.buffered() <= max_line_bytes_;
    });
    if (status == ReadStatus::eof) out_eof_ = true;
}

void LineChannel::feed() {
    if (!events_.pending()) return;
    std::string line;
    while (events_.pending()) {
        switch (lines_.next(line)) {
            case LineSplitter::Next::need_more:
                if (out_eof_) events_.finish(ReplyStatus::closed, events_.exit_or("closed its output"));
                return;
            case LineSplitter::Next::overflow:
                events_.finish(ReplyStatus::overflow, fmt::format("line longer than {} bytes", max_line_bytes_));
                return;
            case LineSplitter::Next::line: break;
        }
        events_.frame_line(line);
    }
}

void LineChannel::drop_earlier_lines(Reply& reply) {
    // What has arrived by now, unless a read is already in flight (its bytes come first).
    if (!out_waiting_) read();
    std::string line;
    while (lines_.next(line) == LineSplitter::Next::line) {
        if (!is_valid_utf8(line)) line = valid_utf8(line);
        events_.transcript('<', line);
        events_.transcript('#', "dropped: sent before the request");
        if (reply.dropped.size() < kMaxDroppedKept) reply.dropped.push_back(std::move(line));
        ++reply.dropped_count;
    }
}

void LineChannel::read_now() {
    read();
    if (events_.reading()) feed();
}

void LineChannel::read_after_exit() {
    // A forked child may keep stdout open, so this reads what is there, not up to end of file.
    for (int i = 0; i < 64 && !out_eof_; ++i) {
        const std::size_t before = lines_.buffered();
        read();
        if (events_.reading()) feed();
        if (!events_.pending() || lines_.buffered() == before) break;
    }
}

void LineChannel::close_input() {
    if (!in_) return;
    ::shutdown(in_->native_handle(), SHUT_WR);
    in_->close();
}

void LineChannel::quit(std::string_view quit_text) {
    if (!quit_text.empty() && in_ && in_->is_open()) {
        events_.transcript('>', quit_text);
        outbox_.append(quit_text);
        (void)flush();
    }
    close_input();
    outbox_.clear();
    watch();  // discard mode: a bot blocked on a full stdout pipe can still exit
}

void LineChannel::stop() {
    close_input();
    outbox_.clear();
    outbox_sent_ = 0;
}

void LineChannel::release() {
    if (out_) out_->close();
}

namespace {

// The bot's stdin and stdout are the channel.
class StdioChannel final : public LineChannel {
public:
    using LineChannel::LineChannel;

    void attach(SpawnedBot& bot) override { attach_streams(bot.stdin_write.release(), bot.stdout_read.release()); }
};

}  // namespace

std::unique_ptr<Channel> make_stdio_channel(const ChannelSeat& seat) { return std::make_unique<StdioChannel>(seat); }

}  // namespace arb::process_table_detail

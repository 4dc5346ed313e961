#pragma once
// The one read loop of the process table: reads what a non-blocking descriptor holds right now,
// chunk by chunk, never blocking and never throwing. Every descriptor the table reads by hand
// goes through it: a stdio bot's stdout pipe and a TCP bot's socket (when a deadline or an exit
// makes the table look once more), every bot's stderr and a TCP/HTTP bot's stdout (drained to
// the log), and the HTTP response. The returned status says what the caller does next.
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <span>
#include <string_view>

namespace arb {

enum class ReadStatus {
    drained,  // everything there was is read (EAGAIN, or a short read): wait for readiness
    paused,   // stopped with bytes perhaps left: max_reads reached, or the sink said stop
    eof,      // end of stream, or an error that is as good as one (the peer is gone)
};

// Up to max_reads read()s of buffer.size() bytes from fd (which must be O_NONBLOCK); each chunk
// goes to sink(std::string_view), which returns false to stop reading (a cap reached). EINTR is
// retried (within max_reads).
template <class Sink>
ReadStatus read_available(int fd, std::span<char> buffer, int max_reads, Sink&& sink) {
    for (int i = 0; i < max_reads; ++i) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n > 0) {
            const auto got = static_cast<std::size_t>(n);
            if (!sink(std::string_view(buffer.data(), got))) return ReadStatus::paused;
            if (got < buffer.size()) return ReadStatus::drained;  // a short read: nothing more now
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return ReadStatus::drained;
        return ReadStatus::eof;  // 0 = end of stream; other errors are as good as one
    }
    return ReadStatus::paused;
}

}  // namespace arb

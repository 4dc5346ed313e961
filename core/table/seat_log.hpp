#pragma once
// A seat's log: <log_dir>/<label>.stderr.log, capped; the rest is read and dropped, so that a bot
// that floods its stderr never blocks on it. Its stderr, and the stdout of a TCP or HTTP bot
// (which answers elsewhere), are drained whenever the event loop runs.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include <boost/asio/posix/stream_descriptor.hpp>

#include "core/table/transcript.hpp"
#include "core/unique_fd.hpp"

namespace arb::process_table_detail {

class SeatLog {
public:
    // One stream drained into the log.
    struct Source {
        std::unique_ptr<boost::asio::posix::stream_descriptor> pipe;
        bool waiting = false, eof = false;
    };

    // `scratch` is the table's read buffer; `cap` the bytes kept. What is read is also given to
    // the seat's transcript, which keeps it per step.
    SeatLog(std::span<char> scratch, std::uint64_t cap, SeatTranscript& transcript)
        : scratch_(scratch), cap_(cap), transcript_(transcript) {}

    // Writes to `path` from now on (else drained and dropped). Throws UserError.
    void open(const std::filesystem::path& path);
    // Drains `source` whenever it has something, until its end.
    void watch(Source& source);
    // Reads what `source` has now, up to `max_reads` reads.
    void drain(Source& source, int max_reads);
    // After the seat's processes are gone: the rest of its stderr, the trailer saying what was
    // dropped, both streams closed.
    void finish();

    Source err;  // the bot's stderr
    Source out;  // tcp_client / http_server: the bot's stdout

private:
    void write(const char* data, std::size_t size);

    std::span<char> scratch_;
    std::uint64_t cap_;
    SeatTranscript& transcript_;
    UniqueFd file_;  // invalid = drained and dropped
    std::uint64_t written_ = 0;
    std::uint64_t dropped_ = 0;
};

}  // namespace arb::process_table_detail

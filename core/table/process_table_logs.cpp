// The ProcessTable's records of a match: each seat's log (its stderr, and the stdout of a TCP or
// HTTP bot, drained whenever the event loop runs into <log_dir>/<label>.stderr.log, capped at
// stderr_cap_bytes; the rest is read and dropped), and the transcript (one line per event).
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/channel/nonblocking_read.hpp"
#include "core/table/process_table_internal.hpp"

namespace arb::process_table_detail {

void ProcessTableImpl::watch_log(int s, LogSource& source) {
    if (source.waiting || source.eof || !source.pipe || !source.pipe->is_open()) return;
    source.waiting = true;
    // The source lives in the seat, which outlives every operation of the table's io_context.
    source.pipe->async_wait(asio::posix::stream_descriptor::wait_read, [this, s, &source](const boost::system::error_code& ec) {
        source.waiting = false;
        if (ec) return;
        drain_log(s, source, kReadsPerWakeup);
        watch_log(s, source);
    });
}

void ProcessTableImpl::drain_log(int s, LogSource& source, int max_reads) {
    if (source.eof || !source.pipe || !source.pipe->is_open()) return;
    Seat& seat = at(s);
    const ReadStatus status = read_available(source.pipe->native_handle(), chunk_, max_reads, [&](std::string_view bytes) {
        write_log(seat, bytes.data(), bytes.size());
        return true;
    });
    if (status == ReadStatus::eof) source.eof = true;
}

void ProcessTableImpl::write_log(Seat& seat, const char* data, std::size_t size) {
    SeatLog& log = seat.log;
    const std::uint64_t cap = options_.limits.stderr_cap_bytes;
    const std::size_t room = log.written < cap ? static_cast<std::size_t>(cap - log.written) : 0;
    const std::size_t kept = std::min(room, size);
    if (kept > 0 && log.file.valid()) {
        if (::write(log.file.get(), data, kept) < 0) log.file.reset();
    }
    log.written += kept;
    log.dropped += size - kept;
}

void ProcessTableImpl::write_log_trailer(Seat& seat) {
    if (seat.log.dropped == 0 || !seat.log.file.valid()) return;
    const std::string trailer = fmt::format("\n[arbiter: stderr capped at {} bytes; {} more bytes dropped]\n",
                                            options_.limits.stderr_cap_bytes, seat.log.dropped);
    (void)!::write(seat.log.file.get(), trailer.data(), trailer.size());
}

void ProcessTableImpl::note(std::string_view text) {
    if (transcript_ == nullptr) return;
    const double t = std::chrono::duration<double>(SteadyClock::now() - opened_).count();
    std::fprintf(transcript_, "%10.6f # %.*s\n", t, static_cast<int>(text.size()), text.data());
    std::fflush(transcript_);
}

void ProcessTableImpl::transcript(const Seat& seat, char direction, std::string_view text) {
    if (transcript_ == nullptr) return;
    const double t = std::chrono::duration<double>(SteadyClock::now() - opened_).count();
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    // One transcript line per text line, so multi-line requests stay readable.
    std::size_t from = 0;
    do {
        const std::size_t nl = text.find('\n', from);
        const std::string_view line = text.substr(from, nl == std::string_view::npos ? std::string_view::npos : nl - from);
        std::fprintf(transcript_, "%10.6f %s %c %.*s\n", t, seat.launch.info.label.c_str(), direction,
                     static_cast<int>(line.size()), line.data());
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    } while (from < text.size());
    std::fflush(transcript_);
}

}  // namespace arb::process_table_detail

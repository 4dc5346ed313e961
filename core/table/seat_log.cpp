#include "core/table/seat_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/channel/channel.hpp"
#include "core/channel/nonblocking_read.hpp"
#include "core/user_error.hpp"

namespace arb::process_table_detail {

void SeatLog::open(const std::filesystem::path& path) {
    file_.reset(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!file_.valid()) throw UserError("cannot write bot log '" + path.string() + "': " + std::strerror(errno));
}

void SeatLog::watch(Source& source) {
    if (source.waiting || source.eof || !source.pipe || !source.pipe->is_open()) return;
    source.waiting = true;
    // The log lives in the seat, which outlives every operation of the table's io_context.
    source.pipe->async_wait(asio::posix::stream_descriptor::wait_read, [this, &source](const boost::system::error_code& ec) {
        source.waiting = false;
        if (ec) return;
        drain(source, kReadsPerWakeup);
        watch(source);
    });
}

void SeatLog::drain(Source& source, int max_reads) {
    if (source.eof || !source.pipe || !source.pipe->is_open()) return;
    const ReadStatus status = read_available(source.pipe->native_handle(), scratch_, max_reads, [&](std::string_view bytes) {
        write(bytes.data(), bytes.size());
        transcript_.printed(bytes);
        return true;
    });
    if (status == ReadStatus::eof) source.eof = true;
}

void SeatLog::write(const char* data, std::size_t size) {
    const std::size_t room = written_ < cap_ ? static_cast<std::size_t>(cap_ - written_) : 0;
    const std::size_t kept = std::min(room, size);
    if (kept > 0 && file_.valid()) {
        if (::write(file_.get(), data, kept) < 0) file_.reset();
    }
    written_ += kept;
    dropped_ += size - kept;
}

void SeatLog::finish() {
    drain(err, 1 << 20);
    drain(out, 1 << 20);
    transcript_.finish();
    if (out.pipe) out.pipe->close();
    if (dropped_ > 0 && file_.valid()) {
        const std::string trailer =
            fmt::format("\n[arbiter: stderr capped at {} bytes; {} more bytes dropped]\n", cap_, dropped_);
        (void)!::write(file_.get(), trailer.data(), trailer.size());
    }
    if (err.pipe) err.pipe->close();
}

}  // namespace arb::process_table_detail

#include "core/channel/line_splitter.hpp"

#include <algorithm>

namespace arb {

void LineSplitter::append(std::string_view bytes) {
    // Drop consumed bytes before growing, so the buffer stays near one line plus one read.
    if (start_ > 0 && (start_ >= buffer_.size() / 2 || start_ > (1u << 16))) {
        buffer_.erase(0, start_);
        scan_ -= std::min(scan_, start_);
        start_ = 0;
    }
    buffer_.append(bytes);
}

LineSplitter::Next LineSplitter::next(std::string& line) {
    const std::size_t from = std::max(scan_, start_);
    const std::size_t newline = buffer_.find('\n', from);
    if (newline == std::string::npos) {
        scan_ = buffer_.size();
        return buffered() > max_line_bytes_ ? Next::overflow : Next::need_more;
    }
    if (newline - start_ > max_line_bytes_) return Next::overflow;
    line.assign(buffer_, start_, newline - start_);
    std::erase(line, '\r');
    start_ = newline + 1;
    scan_ = start_;
    if (start_ == buffer_.size()) {
        buffer_.clear();
        start_ = scan_ = 0;
    }
    return Next::line;
}

void LineSplitter::clear() {
    buffer_.clear();
    start_ = scan_ = 0;
}

}  // namespace arb

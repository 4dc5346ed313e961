#pragma once
// Cuts a byte stream from a bot into lines: '\n' ends a line, every '\r' is dropped (CRLF bots,
// planowanie.md 3.2), and a line longer than the cap is an overflow instead of unbounded memory.
// Pure: no I/O, so the framing rules are tested without processes.
#include <cstddef>
#include <string>
#include <string_view>

namespace arb {

class LineSplitter {
public:
    enum class Next { line, need_more, overflow };

    explicit LineSplitter(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

    void append(std::string_view bytes);
    // The next complete line into `line` ('\r' and '\n' removed), or need_more, or overflow
    // when the line being received already exceeds the cap (with or without its '\n').
    Next next(std::string& line);

    std::size_t buffered() const { return buffer_.size() - start_; }
    std::string_view pending() const { return std::string_view(buffer_).substr(start_); }
    void clear();

private:
    std::size_t max_line_bytes_;
    std::string buffer_;
    std::size_t start_ = 0;  // first unconsumed byte
    std::size_t scan_ = 0;   // bytes before this offset (from start_) hold no '\n'
};

}  // namespace arb

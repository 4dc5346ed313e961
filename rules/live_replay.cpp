#include "rules/live_replay.hpp"

#include <algorithm>
#include <charconv>

#include "core/atomic_file.hpp"
#include "core/user_error.hpp"

namespace arb {

void LiveReplay::write(int step, std::string_view text) {
    const auto start = std::chrono::steady_clock::now();
    std::string contents;
    contents.reserve(kFirstLine.size() + 12 + text.size());
    contents.append(kFirstLine).append(std::to_string(step)).append("\n").append(text);
    try {
        write_file_atomically(path_, contents, Durability::unsynced);
    } catch (const UserError&) {
        // The page is a view: the match plays whether it can be followed or not.
    }
    const auto now = std::chrono::steady_clock::now();
    next_ = now + std::max<std::chrono::steady_clock::duration>(kMinInterval, (now - start) * kCostFactor);
}

std::optional<LiveReplayText> split_live_replay(std::string_view contents) {
    if (!contents.starts_with(LiveReplay::kFirstLine)) return std::nullopt;
    const std::size_t end = contents.find('\n');
    if (end == std::string_view::npos) return std::nullopt;
    LiveReplayText out;
    const char* first = contents.data() + LiveReplay::kFirstLine.size();
    const auto [ptr, ec] = std::from_chars(first, contents.data() + end, out.step);
    if (ec != std::errc() || ptr != contents.data() + end || out.step < 0) return std::nullopt;
    out.text = contents.substr(end + 1);
    return out;
}

}  // namespace arb

#include "arbiter/serve/transcript_follow.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "core/table/transcript_steps.hpp"

namespace arb::serve {
namespace {

constexpr std::size_t kPartialMax = 64 * 1024;  // a longer line is not the table's (its lines are cut)

}  // namespace

void TranscriptFollower::look() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) return;
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uintmax_t>(in.tellg());
    if (size < offset_) {  // replaced (a rerun of the match): start over
        *this = TranscriptFollower(path_);
    }
    if (size == offset_) return;
    const std::uintmax_t want = std::min<std::uintmax_t>(size - offset_, kReadPerLook);
    std::vector<char> buffer(want);
    in.seekg(static_cast<std::streamoff>(offset_));
    in.read(buffer.data(), static_cast<std::streamsize>(want));
    const auto got = static_cast<std::size_t>(in.gcount());
    offset_ += got;
    for (std::size_t i = 0; i < got; ++i) {
        const char c = buffer[i];
        if (c == '\n') {
            if (!skipping_) take(partial_);
            partial_.clear();
            skipping_ = false;
        } else if (!skipping_) {
            partial_ += c;
            if (partial_.size() > kPartialMax) {
                partial_.clear();
                skipping_ = true;
            }
        }
    }
}

// "  0.051450 p0 > text", "  0.051456 p0 # charged 0.214 ms", "  0.1 # step 3", "# header".
void TranscriptFollower::take(const std::string& line) {
    if (line.empty() || line[0] == '#') return;  // the header: limits, seats
    char* end = nullptr;
    const double t = std::strtod(line.c_str(), &end);
    if (end == line.c_str()) return;
    elapsed_s_ = t;
    std::string rest(end);
    while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (const auto step = step_mark_of(rest)) {
        step_ = *step;
        return;
    }
    const auto space = rest.find(' ');
    if (rest[0] != '#' && space != std::string::npos && space + 1 < rest.size()) {  // '#': the referee's note
        const std::string label = rest.substr(0, space);
        const char direction = rest[space + 1];
        SeatProgress& seat = seats_[label];
        if (direction == '>') ++seat.requests;
        else if (direction == '#' && space + 3 <= rest.size())
            seat.charged_ms += charged_ms_of(std::string_view(rest).substr(space + 3)).value_or(0);
        if (seats_.size() > 64) seats_.erase(label);  // not a table's transcript: no more seats
    }
    lines_.push_back({step_, rest.substr(0, kLineKept)});
    if (lines_.size() > kKeptLines) lines_.pop_front();
}

}  // namespace arb::serve

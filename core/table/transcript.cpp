#include "core/table/transcript.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "core/utf8_text.hpp"

namespace arb::process_table_detail {

Transcript::Transcript(const std::filesystem::path& path) {
    if (path.empty()) return;
    if (path.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(path.parent_path(), ec);
    }
    file_ = std::fopen(path.c_str(), "we");
    if (file_ == nullptr) throw UserError("cannot write transcript '" + path.string() + "': " + std::strerror(errno));
}

Transcript::~Transcript() {
    if (file_ != nullptr) std::fclose(file_);
}

double Transcript::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
}

void Transcript::header(std::string_view text) {
    if (file_ == nullptr) return;
    std::fprintf(file_, "%.*s\n", static_cast<int>(text.size()), text.data());
    std::fflush(file_);
}

void Transcript::note(std::string_view text) {
    if (file_ == nullptr) return;
    std::fprintf(file_, "%10.6f # %.*s\n", seconds(), static_cast<int>(text.size()), text.data());
}

void Transcript::flush() {
    if (file_ != nullptr) std::fflush(file_);
}

void Transcript::step(int step) {
    if (file_ == nullptr) return;
    std::fprintf(file_, "%10.6f # step %d\n", seconds(), step);
}

void Transcript::seat_line(std::string_view label, char direction, std::string_view text) {
    if (file_ == nullptr) return;
    const double t = seconds();
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    // One transcript line per text line, so multi-line requests stay readable.
    std::size_t from = 0;
    do {
        const std::size_t nl = text.find('\n', from);
        const std::string_view line = text.substr(from, nl == std::string_view::npos ? std::string_view::npos : nl - from);
        std::fprintf(file_, "%10.6f %.*s %c %.*s\n", t, static_cast<int>(label.size()), label.data(), direction,
                     static_cast<int>(line.size()), line.data());
        if (nl == std::string_view::npos) break;
        from = nl + 1;
    } while (from < text.size());
}

// ---- one seat --------------------------------------------------------------------------------

void SeatTranscript::line(char direction, std::string_view text) {
    if (!transcript_.open()) return;
    if (direction == '>') close_step();
    transcript_.seat_line(label_, direction, text);
}

void SeatTranscript::printed(std::string_view bytes) {
    if (!transcript_.open()) return;
    while (!bytes.empty()) {
        const std::size_t nl = bytes.find('\n');
        const std::string_view piece = bytes.substr(0, nl);
        const std::size_t room = kLineKept > partial_.size() ? kLineKept - partial_.size() : 0;
        partial_.append(piece.substr(0, room));
        if (piece.size() > room) partial_cut_ = true;
        if (nl == std::string_view::npos) return;
        keep_line(partial_);
        partial_.clear();
        partial_cut_ = false;
        bytes.remove_prefix(nl + 1);
    }
}

void SeatTranscript::keep_line(std::string_view text) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    const std::size_t size = text.size() + 1;
    if (match_bytes_ + size > kBytesPerMatch) {
        if (!match_cut_said_) {
            transcript_.seat_line(label_, '!', "[arbiter: stderr past 256 KiB a match is not kept here; it is in the seat's log]");
            match_cut_said_ = true;
        }
        return;
    }
    if (step_lines_ >= kLinesPerStep || step_bytes_ + size > kBytesPerStep) {
        // Said at once, so that the mark lies in this step whatever the referee marks next.
        if (!step_cut_said_)
            transcript_.seat_line(label_, '!', "[arbiter: stderr past 40 lines or 4 KiB a step is not kept here; it is in the seat's log]");
        step_cut_said_ = true;
        return;
    }
    ++step_lines_;
    step_bytes_ += size;
    match_bytes_ += size;
    std::string line = valid_utf8(text);
    if (partial_cut_) line += " [arbiter: line cut]";
    transcript_.seat_line(label_, '!', line);
}

void SeatTranscript::close_step() {
    step_lines_ = 0;
    step_bytes_ = 0;
    step_cut_said_ = false;
}

void SeatTranscript::end_step() {
    if (charges_ == 0 || !transcript_.open()) return;
    transcript_.seat_line(label_, '#', fmt::format("charged {:.3f} ms", charged_ms_));
    charged_ms_ = 0;
    charges_ = 0;
}

void SeatTranscript::finish() {
    if (!transcript_.open()) return;
    end_step();
    if (!partial_.empty()) keep_line(partial_);
    partial_.clear();
    close_step();
}

}  // namespace arb::process_table_detail

#include "core/table/transcript.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "core/user_error.hpp"

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
    std::fflush(file_);
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
    std::fflush(file_);
}

}  // namespace arb::process_table_detail

#include "core/json_text.hpp"

#include <fstream>

#include <fmt/format.h>

#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"

namespace arb {

nlohmann::json parse_json_text(std::string_view text, const std::string& source) {
    const auto limit_depth = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        if (depth >= kMaxJsonDepth && (event == nlohmann::json::parse_event_t::object_start ||
                                       event == nlohmann::json::parse_event_t::array_start)) {
            throw UserError(fmt::format("{}: JSON nested deeper than {} levels", source, kMaxJsonDepth));
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text, limit_depth);
    } catch (const nlohmann::json::exception& e) {
        throw UserError(fmt::format("{}: not valid JSON: {}", source, e.what()));
    }
}

std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError(fmt::format("{}: cannot read: {}", path.string(), unreadable_reason(path)));
    std::string text;
    char buffer[1 << 16];
    while (text.size() <= max_bytes && in.read(buffer, sizeof buffer).gcount() > 0)
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        throw UserError(ec ? fmt::format("{}: more than {} bytes", path.string(), max_bytes)
                           : fmt::format("{}: {} bytes, at most {}", path.string(), size, max_bytes));
    }
    return text;
}

}  // namespace arb

#include "rules/koehandel/koehandel_protocol.hpp"

#include <utility>

#include <fmt/format.h>

namespace arb::koehandel {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string url_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 && hex_digit(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace

std::uint64_t market_of(std::uint64_t seed) { return 1 + seed % 1000000000ULL; }

std::string request_text(const Message& message, std::uint64_t market, int seat) {
    std::string text = fmt::format("/?market={}&id={}&type={}", market, seat + 1, message.type);
    const std::pair<const char*, const std::string*> fields[] = {{"opponent", &message.opponent},
                                                                 {"auctioneer", &message.auctioneer},
                                                                 {"goods", &message.goods},
                                                                 {"money", &message.money},
                                                                 {"message", &message.message}};
    for (const auto& [key, value] : fields)
        if (!value->empty()) text += fmt::format("&{}={}", key, *value);
    return text;
}

Fields parse_query(std::string_view body) {
    std::string_view line;
    while (!body.empty()) {
        const auto eol = body.find('\n');
        std::string_view candidate = body.substr(0, eol);
        body = eol == std::string_view::npos ? std::string_view() : body.substr(eol + 1);
        while (!candidate.empty() && (candidate.back() == '\r' || candidate.back() == ' ')) candidate.remove_suffix(1);
        while (!candidate.empty() && candidate.front() == ' ') candidate.remove_prefix(1);
        if (!candidate.empty()) {
            line = candidate;
            break;
        }
    }
    if (!line.empty() && line.front() == '?') line.remove_prefix(1);
    Fields fields;
    while (!line.empty()) {
        const auto amp = line.find('&');
        const std::string_view pair = line.substr(0, amp);
        line = amp == std::string_view::npos ? std::string_view() : line.substr(amp + 1);
        const auto eq = pair.find('=');
        if (eq == std::string_view::npos || eq == 0) continue;
        fields[url_decode(pair.substr(0, eq))] = url_decode(pair.substr(eq + 1));
    }
    return fields;
}

}  // namespace arb::koehandel

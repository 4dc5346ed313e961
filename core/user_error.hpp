#pragma once
// Errors a user can cause and fix: a bad bot spec, a missing map, an unknown option.
// main() prints what() as one line and exits with kUsageExitCode; everything else is a bug.
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace arb {

inline constexpr int kUsageExitCode = 2;

// The message as one line: messages quote outside text (a spec, a map line, a key), and a
// newline or another control byte in it would break the line or the terminal. Such bytes are
// written as \n, \r, \t or \xHH.
inline std::string one_line_message(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (byte < 0x20 || byte == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", byte);
            out += hex;
        } else out += c;
    }
    return out;
}

class UserError : public std::runtime_error {
public:
    explicit UserError(std::string_view message) : std::runtime_error(one_line_message(message)) {}
    explicit UserError(const std::string& message) : UserError(std::string_view(message)) {}
    explicit UserError(const char* message) : UserError(std::string_view(message)) {}
};

// Makes the folder (and its parents) the user named with `flag`, or a UserError saying why not
// (a file in the way, no permission).
inline void ensure_folder(const std::filesystem::path& folder, const std::string& flag) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (!ec && std::filesystem::is_directory(folder, ec)) return;
    throw UserError(flag + " " + folder.string() + ": cannot make a folder there (" +
                    (ec ? ec.message() : std::string("a file of that name is in the way")) + ")");
}

}  // namespace arb

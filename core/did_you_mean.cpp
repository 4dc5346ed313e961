#include "core/did_you_mean.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "core/unique_fd.hpp"
#include "core/utf8_text.hpp"

namespace arb {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

std::string closest_name(std::string_view word, const std::vector<std::string>& candidates,
                         std::size_t max_distance) {
    std::string best;
    std::size_t best_distance = max_distance + 1;
    for (const auto& candidate : candidates) {
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance) best_distance = d, best = candidate;
    }
    if (!best.empty() || word.size() < 3) return best;
    // A truncated name ("total-time" for "total-time-ms") is far in edits but plain to a reader:
    // suggest the one candidate that starts with it.
    for (const auto& candidate : candidates) {
        if (candidate.rfind(word, 0) != 0) continue;
        if (!best.empty()) return "";  // more than one: no guess
        best = candidate;
    }
    return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    const std::string best = closest_name(word, candidates);
    return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

std::string did_you_mean_file(const std::filesystem::path& path) {
    std::error_code ec;
    std::vector<std::string> names;
    std::filesystem::directory_iterator it(path.parent_path().empty() ? "." : path.parent_path(), ec);
    for (std::size_t seen = 0; !ec && it != std::filesystem::directory_iterator() && seen < 10000; it.increment(ec), ++seen)
        // A name a terminal would act on (escape sequences a bot may have left as a file name)
        // is never the one meant, and is not printed.
        if (const std::string name = it->path().filename().string(); terminal_text(name) == name) names.push_back(name);
    return did_you_mean(path.filename().string(), names);
}

std::string unreadable_reason(const std::filesystem::path& path) {
    // O_NONBLOCK: a FIFO put where a file is expected must not hold the caller.
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    const int error = errno;
    std::error_code ec;
    if (fd.valid()) return std::filesystem::is_directory(path, ec) ? "it is a folder" : "";
    if (error != ENOENT) return std::strerror(error);
    const std::filesystem::path folder = path.parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) return "no folder " + folder.string();
    return std::strerror(error) + did_you_mean_file(path);
}

}  // namespace arb

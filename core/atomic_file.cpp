#include "core/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

#include "core/user_error.hpp"

namespace arb {

void write_file_atomically(const std::filesystem::path& path, std::string_view text, Durability durability) {
    const std::string temporary = path.string() + fmt::format(".{}.tmp", ::getpid());
    int error = 0;
    if (std::FILE* f = std::fopen(temporary.c_str(), "wb")) {
        if (std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fflush(f) != 0 ||
            (durability == Durability::synced && ::fsync(::fileno(f)) != 0))
            error = errno;
        if (std::fclose(f) != 0 && error == 0) error = errno;
        if (error == 0 && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
    } else {
        error = errno;
    }
    if (error == 0) return;
    std::remove(temporary.c_str());
    throw UserError(fmt::format("cannot write {}: {}", path.string(), std::strerror(error)));
}

}  // namespace arb

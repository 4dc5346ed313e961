#pragma once
// What tells the server a file changed since it last looked: its size, modification time and
// inode ("" when it is not there). A file replaced by a rename has a new inode whatever its time.
#include <sys/stat.h>

#include <string>

#include <fmt/format.h>

namespace arb::serve {

inline std::string file_stamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return fmt::format("{}:{}.{}:{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ino);
}

}  // namespace arb::serve

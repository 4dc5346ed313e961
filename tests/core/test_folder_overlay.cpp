// The write-back of a confined bot's folder (core/confine/folder_overlay.hpp) on an upper layer made by
// hand, as the overlay leaves it: new files and folders, whiteouts, an opaque folder, a set-user-ID
// bit, and links a bot left in its folder that lead out of it.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/confine/folder_overlay.hpp"
#include "tests/test_scratch.hpp"

using namespace arb;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir(const std::string& name) {
    const fs::path dir = arb::testing::fresh_scratch(name);
    return dir;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_at(int dir, const char* name, const std::string& text, mode_t mode = 0644) {
    const UniqueFd fd(::openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode));
    REQUIRE(fd.valid());
    REQUIRE(::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    ::fchmod(fd.get(), mode);
}

}  // namespace

TEST_CASE("the write-back applies the upper layer and never leaves the folder through a link") {
    const UniqueFd scratch = make_folder_scratch(8, 0, 0, 0755);
    if (!scratch.valid()) {
        MESSAGE("skipped: no scratch file system here (needs root): " << std::strerror(errno));
        return;
    }
    const fs::path folder = scratch_dir("write-back-folder");
    const fs::path outside = scratch_dir("write-back-outside");
    std::ofstream(outside / "victim") << "not the bot's\n";
    std::ofstream(folder / "keep") << "old\n";
    fs::create_directories(folder / "opaque" / "old");
    // Links an earlier match left: a folder and a file out of the folder, under names the upper
    // layer now writes and deletes.
    fs::create_directory_symlink(outside, folder / "link_dir");
    fs::create_symlink(outside / "victim", folder / "link_file");
    // The trap is real: a write that follows the link lands outside.
    std::ofstream(folder / "link_dir" / "probe") << "x";
    REQUIRE(fs::exists(outside / "probe"));
    fs::remove(outside / "probe");

    const UniqueFd upper(::openat(scratch.get(), kScratchUpper, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    REQUIRE(upper.valid());
    write_at(upper.get(), "keep", "new\n");
    write_at(upper.get(), "shell", "#!/bin/sh\n", 04755);
    REQUIRE(::mkdirat(upper.get(), "link_dir", 0755) == 0);  // not opaque: merged with what is there
    const UniqueFd link_dir(::openat(upper.get(), "link_dir", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    write_at(link_dir.get(), "planted", "planted\n");
    REQUIRE(::mknodat(upper.get(), "link_file", S_IFCHR | 0000, makedev(0, 0)) == 0);  // a whiteout
    REQUIRE(::mkdirat(upper.get(), "opaque", 0755) == 0);
    const UniqueFd opaque(::openat(upper.get(), "opaque", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    REQUIRE(::fsetxattr(opaque.get(), "trusted.overlay.opaque", "y", 1, 0) == 0);
    write_at(opaque.get(), "fresh", "fresh\n");
    REQUIRE(::symlinkat("keep", upper.get(), "alias") == 0);

    const FolderWriteBack done = write_back_folder(scratch.get(), folder, 0, 0);
    CHECK(done.skipped == 0);
    CHECK(done.error.empty());
    CHECK(done.removed == 1);  // link_file (link_dir and opaque are replaced, not removed)
    CHECK(read_file(folder / "keep") == "new\n");
    CHECK(read_file(folder / "opaque" / "fresh") == "fresh\n");
    CHECK_FALSE(fs::exists(folder / "opaque" / "old"));
    CHECK(fs::read_symlink(folder / "alias") == "keep");
    // The links were replaced, never followed.
    CHECK(fs::is_directory(fs::symlink_status(folder / "link_dir")));
    CHECK(read_file(folder / "link_dir" / "planted") == "planted\n");
    CHECK_FALSE(fs::exists(outside / "planted"));
    CHECK_FALSE(fs::exists(fs::symlink_status(folder / "link_file")));
    CHECK(read_file(outside / "victim") == "not the bot's\n");
    struct stat shell {};
    REQUIRE(::stat((folder / "shell").c_str(), &shell) == 0);
    CHECK((shell.st_mode & 07777) == 0755);  // no set-user-ID bit comes back
    // Nothing half-written stays behind.
    for (const auto& entry : fs::directory_iterator(folder))
        CHECK(entry.path().filename().string().rfind(".arbiter-write-back", 0) == std::string::npos);
    fs::remove_all(folder);
    fs::remove_all(outside);
}

TEST_CASE("the scratch bounds what goes in: the size given, files and folders together") {
    const UniqueFd scratch = make_folder_scratch(1, 0, 0, 0755);
    if (!scratch.valid()) {
        MESSAGE("skipped: no scratch file system here (needs root)");
        return;
    }
    const UniqueFd tmp(::openat(scratch.get(), kScratchTmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    const UniqueFd file(::openat(tmp.get(), "big", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
    REQUIRE(file.valid());
    const std::string chunk(64 * 1024, 'x');
    std::size_t written = 0;
    while (written < (4u << 20)) {
        const ssize_t n = ::write(file.get(), chunk.data(), chunk.size());
        if (n <= 0) break;
        written += static_cast<std::size_t>(n);
    }
    CHECK(written <= (1u << 20));
    CHECK(errno == ENOSPC);
}

#include "core/confine/user_namespace.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace arb {

namespace {

bool entered = false;
std::string failure;  // why it could not enter one
bool started_as_root = ::geteuid() == 0;  // before main: the ids as the arbiter was started

}  // namespace

bool write_id_map(const char* path, std::string_view text) {
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int error = errno;
    ::close(fd);
    errno = error;
    return ok;
}

std::string enter_own_user_namespace() {
    if (started_as_root || entered) return "";
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return failure = std::string("cannot enter a user namespace of its own: ") + std::strerror(errno);
    // One id each way: the arbiter's own user and group are root inside. Its supplementary
    // groups stay (shown as the overflow group), and may no longer be changed.
    if (!write_id_map("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") ||
        !write_id_map("/proc/self/setgroups", "deny") ||
        !write_id_map("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n"))
        return failure = std::string("cannot map its user in its own user namespace: ") + std::strerror(errno);
    entered = true;
    return "";
}

bool host_root() { return started_as_root; }

bool in_own_user_namespace() { return entered; }

std::string user_namespace_failure() {
    if (started_as_root || entered) return "";
    return failure.empty() ? "the arbiter does not run as root and did not enter a user namespace of its own" : failure;
}

}  // namespace arb

#include "core/confine/seat_users.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "core/user_error.hpp"
#include "core/confine/user_namespace.hpp"

namespace arb {

SeatUser take_seat_user() {
    if (!host_root())
        throw UserError("--seat-users: the arbiter must run as root to start each bot as a user of its own");
    std::error_code ec;
    const std::string folder = std::filesystem::is_directory("/run/lock", ec) ? "/run/lock" : "/tmp";
    for (int k = 0; k < kSeatUidCount; ++k) {
        const uid_t id = kSeatUidBase + static_cast<uid_t>(k);
        const std::string path = folder + "/arbiter-seat-uid-" + std::to_string(id);
        UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
        if (!fd.valid()) throw UserError("--seat-users: cannot open " + path + ": " + std::strerror(errno));
        if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) return SeatUser(id, std::move(fd));
        if (errno != EWOULDBLOCK) throw UserError("--seat-users: cannot lock " + path + ": " + std::strerror(errno));
    }
    throw UserError("--seat-users: all " + std::to_string(kSeatUidCount) + " seat user ids are taken");
}

}  // namespace arb

#pragma once
// A user id of its own for each running seat, where the arbiter runs as root (--seat-users):
// a bot then cannot read files that only root may read, nor (even without the sandbox) open
// another seat's /proc/<pid>/fd, environ or mem, nor signal it.
//
// Ids are taken from kSeatUidBase upward; each taken id is held by an flock on
// /run/lock/arbiter-seat-uid-<id> (or /tmp when /run/lock is missing), so seats of arbiters
// running side by side on the machine never share one. No such user needs to exist.
#include <sys/types.h>

#include <optional>

#include "core/unique_fd.hpp"

namespace arb {

inline constexpr uid_t kSeatUidBase = 2'100'000'000;
inline constexpr int kSeatUidCount = 4096;

class SeatUser {
public:
    SeatUser() = default;
    SeatUser(uid_t id, UniqueFd lock) : id_(id), lock_(std::move(lock)) {}
    uid_t id() const { return id_; }  // also the group id
    bool held() const { return lock_.valid(); }

private:
    uid_t id_ = 0;
    UniqueFd lock_;  // closing it frees the id
};

// Takes a free seat id. Throws UserError when the arbiter is not root (it cannot switch a bot's
// user) or every id is taken.
SeatUser take_seat_user();

}  // namespace arb

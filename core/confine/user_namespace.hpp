#pragma once
// A non-root arbiter gets the root arbiter's sandbox: at its start, while it is one thread, it
// enters a user namespace of its own in which it is root (its own user id mapped to 0, as nsjail
// and rootless container runtimes do), with a mount namespace owned by it. There it may make the
// namespaces, mounts and network namespaces the sandbox needs (core/confine/namespace_sandbox.hpp); on
// the host it stays its own user: every file it makes is its user's, and it can reach nothing its
// user could not. Each confined seat then enters a user namespace of its own below the
// arbiter's, as a user id that is not root there, so the kernel counts its processes apart
// from every other seat's (RLIMIT_NPROC is counted per user namespace).
#include <string>
#include <string_view>

namespace arb {

// Enters the arbiter's own user and mount namespaces when it does not run as root. Call first
// thing in main, before any thread starts (the kernel refuses a process of several threads).
// "" when it entered them or runs as root; otherwise why not (unprivileged user namespaces off,
// say), and the sandbox falls back to bubblewrap.
std::string enter_own_user_namespace();

// The arbiter runs as root of the host (not only of a user namespace of its own): seat user ids,
// idmapped mounts and the files under /run are its to use.
bool host_root();

// The arbiter runs in the user namespace it entered itself.
bool in_own_user_namespace();

// Why the arbiter can make no namespaces: "" as root or in its own user namespace.
std::string user_namespace_failure();

// Writes a user namespace's uid_map, gid_map or setgroups file (/proc/PID/...) in one write, as
// the kernel requires. False (errno set) when it could not. Async-signal-safe (a confined child
// writes its own).
bool write_id_map(const char* path, std::string_view text);

// The user id a confined seat runs as inside its own user namespace (an unprivileged arbiter's).
constexpr unsigned kSeatUidInside = 1000;

}  // namespace arb

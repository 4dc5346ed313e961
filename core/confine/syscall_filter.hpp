#pragma once
// The system call filter of a confined bot: a seccomp program, built with libseccomp, that
// answers EPERM to the kernel interfaces a contest bot has no use for and that widen the attack
// surface (new namespaces, mounts, io_uring, keyrings, perf, bpf, userfaultfd, modules, kexec,
// ptrace, ...: the denials of Docker's default profile for a container without extra
// capabilities). Everything else is allowed. What is denied and why: docs/core.md, "Syscall filter".
#include <linux/filter.h>

#include <string>
#include <vector>

#include "core/unique_fd.hpp"

namespace arb {

struct SyscallFilter {
    std::vector<sock_filter> instructions;  // the BPF program libseccomp built (exported in the parent)
    sock_fprog program() const;             // points into instructions
    std::vector<std::string> allowed;       // what the user let through (sorted, once each)
};

// The default filter minus the syscalls named in `allowed`: names as in `man 2 syscalls`
// ("perf_event_open") or a group (syscall_filter_groups()). Built once per distinct list (cached,
// thread-safe; the reference stays valid for the life of the process). Throws arb::UserError
// naming an unknown name, with the nearest valid one.
const SyscallFilter& syscall_filter(const std::vector<std::string>& allowed);

// In a child between fork/clone and exec, after PR_SET_NO_NEW_PRIVS: installs the program.
// Async-signal-safe, allocates nothing (a raw seccomp/prctl system call); 0 or an errno.
int install_syscall_filter(const sock_fprog& program);

// The program as bubblewrap's `--seccomp FD` reads it (the raw sock_filter array), in a sealed
// memfd (seeked to 0, not close-on-exec so bwrap inherits it).
UniqueFd syscall_filter_memfd(const SyscallFilter& filter);

// The system calls the default filter denies, wholly or for some arguments (clone with a
// CLONE_NEW* flag, personality other than the usual values, socket for AF_ALG and AF_VSOCK,
// clone3 with ENOSYS), in the filter's order. Names this libseccomp or architecture does not know
// are listed too (they are skipped when the filter is built).
std::vector<std::string> denied_syscall_names();

// The group names `allowed` accepts, each standing for several denied calls
// ("namespaces", "mounts", "io_uring", "keyring", ...), and the calls of one group.
std::vector<std::string> syscall_filter_groups();
std::vector<std::string> syscall_group_members(const std::string& group);

}  // namespace arb

#include "core/output_modes.hpp"

#include <sys/stat.h>

namespace arb {

namespace {

// Read once before main changes it; the user's umask whatever the arbiter sets later.
mode_t user_umask = [] {
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return mask;
}();

}  // namespace

void keep_outputs_private() { ::umask(user_umask | 077); }

void share_outputs() { ::umask(user_umask); }

mode_t bot_umask() { return user_umask; }

}  // namespace arb

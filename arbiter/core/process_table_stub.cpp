#include "arbiter/core/process_table.hpp"

#include "arbiter/core/user_error.hpp"

namespace arb {

// Placeholder until the process implementation lands.
std::unique_ptr<ProcessTable> ProcessTable::launch(std::vector<SeatLaunch>, TableOptions) {
    throw UserError("bot processes are not implemented yet");
}

}  // namespace arb

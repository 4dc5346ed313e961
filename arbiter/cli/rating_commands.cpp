// arbiter rate | los  (placeholder until the rating stage lands)
#include "arbiter/cli/commands.hpp"

namespace arb::cli {

void add_rating_commands(CLI::App&) {}

}  // namespace arb::cli

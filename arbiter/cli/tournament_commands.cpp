// arbiter tournament | ladder | report  (placeholder until the tournament layer lands)
#include "arbiter/cli/commands.hpp"

namespace arb::cli {

void add_tournament_commands(CLI::App&) {}

}  // namespace arb::cli

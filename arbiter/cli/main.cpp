// arbiter: seeded, reproducible matches, tournaments and ladders for contest bots.
#include "arbiter/cli/command_line.hpp"

int main(int argc, char** argv) { return arb::cli::run_command_line(argc, argv); }

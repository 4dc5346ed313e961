#pragma once
// The whole command line, behind one function, so the program's main() is compiled without CLI11.

namespace arb::cli {

// Parses argv and runs the command it names; returns the process's exit code.
int run_command_line(int argc, char** argv);

}  // namespace arb::cli

#pragma once
// A fuzz target is a function of the input bytes that feeds them to one reader of outside text
// (a bot's replies, a map, a replay, a config...). It may end in UserError, the reader's answer
// to bad input, and in nothing else: any other exception, a crash, a sanitizer report or a huge
// allocation is a finding. The same functions run under libFuzzer (fuzz_main.cpp, the fuzz
// preset, tools/fuzz) and, in the normal suite, over the checked-in seeds and regressions
// (test_fuzz_corpus.cpp).
#include <map>
#include <string>
#include <string_view>

namespace arb::fuzz {

using TargetFunction = void (*)(std::string_view data);

// Every target linked into the program, by name.
std::map<std::string, TargetFunction>& targets();

struct Registration {
    Registration(const char* name, TargetFunction function) { targets()[name] = function; }
};

// A UserError's message is what the user sees: one line, not empty.
bool is_one_line(std::string_view message);

// Runs one input through a target. Returns "" when it ended normally or with a one-line
// UserError, else what went wrong (other exceptions propagate: they are findings as they are).
std::string run_target(TargetFunction function, std::string_view data);

}  // namespace arb::fuzz

#define ARBITER_FUZZ_TARGET(name)                                                                  \
    static void arbiter_fuzz_##name(std::string_view data);                                       \
    static const ::arb::fuzz::Registration arbiter_fuzz_registration_##name(#name, arbiter_fuzz_##name); \
    static void arbiter_fuzz_##name(std::string_view data)

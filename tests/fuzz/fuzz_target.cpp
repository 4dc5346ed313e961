#include "tests/fuzz/fuzz_target.hpp"

#include <string>

#include "core/user_error.hpp"

namespace arb::fuzz {

std::map<std::string, TargetFunction>& targets() {
    static std::map<std::string, TargetFunction> all;
    return all;
}

bool is_one_line(std::string_view message) {
    return !message.empty() && message.find('\n') == std::string_view::npos &&
           message.find('\r') == std::string_view::npos;
}

std::string run_target(TargetFunction function, std::string_view data) {
    try {
        function(data);
    } catch (const UserError& e) {
        if (!is_one_line(e.what())) return "the error is not one line: '" + std::string(e.what()) + "'";
    }
    return "";
}

}  // namespace arb::fuzz

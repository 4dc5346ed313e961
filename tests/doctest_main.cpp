// The suites' main: doctest's own, except that a run whose filters select no test case fails.
// ctest runs each case by name; a name doctest's filter cannot match (a ';' splits it) would
// otherwise pass having checked nothing.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

#include "core/confine/user_namespace.hpp"
#include "tests/test_scratch.hpp"

namespace {

unsigned g_cases_selected = 0;

struct SelectedCasesListener : doctest::IReporter {
    explicit SelectedCasesListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats& stats) override {
        g_cases_selected = stats.numTestCasesPassingFilters;
    }
    void test_case_start(const doctest::TestCaseData&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

bool names_a_test_case(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--test-case=", 12) == 0 || std::strncmp(argv[i], "-tc=", 4) == 0) {
            return true;
        }
    }
    return false;
}

}  // namespace

DOCTEST_REGISTER_LISTENER("selected_cases", 1, SelectedCasesListener);

int main(int argc, char** argv) {
    // As the arbiter does under a non-root user (arbiter/cli/main.cpp), before any thread.
    arb::enter_own_user_namespace();
    doctest::Context context(argc, argv);
    const int result = context.run();
    arb::testing::end_scratch(result == 0);
    if (context.shouldExit()) return result;
    if (result == 0 && names_a_test_case(argc, argv) && g_cases_selected == 0) {
        std::fputs("doctest: the --test-case filter selects no test case\n", stderr);
        return 1;
    }
    return result;
}

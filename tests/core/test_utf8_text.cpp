// Text that is not UTF-8 is escaped byte by byte, valid text is left as it is.
#include <doctest/doctest.h>

#include "core/bot_spec.hpp"
#include "core/utf8_text.hpp"

using arb::is_valid_utf8;
using arb::valid_utf8;

TEST_CASE("valid UTF-8 is kept as it is") {
    for (const std::string text : {"", "plain", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x90\x91 sheep", "\xF4\x8F\xBF\xBF"}) {
        CAPTURE(text);
        CHECK(is_valid_utf8(text));
        CHECK(valid_utf8(text) == text);
    }
}

TEST_CASE("each byte outside a valid sequence becomes \\xHH") {
    CHECK(valid_utf8("a\xFF" "b") == "a\\xFFb");
    CHECK(valid_utf8("\xC3") == "\\xC3");                      // a sequence cut short
    CHECK(valid_utf8("\xC0\x80") == "\\xC0\\x80");             // an overlong NUL
    CHECK(valid_utf8("\xED\xA0\x80") == "\\xED\\xA0\\x80");    // a surrogate
    CHECK(valid_utf8("\xF4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
    CHECK(valid_utf8("\xE2\x82\xAC\xFE") == "\xE2\x82\xAC\\xFE");      // valid text around it stays
    CHECK(is_valid_utf8(valid_utf8("\xFF\xFE\xFD")));
}

TEST_CASE("a bot name that is not UTF-8 is escaped, not refused") {
    CHECK(arb::parse_bot_spec("name=a\xFF cmd=/bin/cat").name == "a\\xFF");
}

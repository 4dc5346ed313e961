#pragma once
// Text from outside (bot replies and names, PGN names) that is not valid UTF-8 is kept, not
// refused: each byte that does not belong to a valid UTF-8 sequence is written as the four
// characters "\xHH", so records, the store and reports (all JSON or HTML, which need UTF-8) can
// show it and nothing downstream fails on it.
#include <string>
#include <string_view>

namespace arb {

bool is_valid_utf8(std::string_view text);
// `text` itself when it is valid UTF-8, else the escaped copy.
std::string valid_utf8(std::string_view text);
// Text from a bot as a terminal may show it: control characters (C0 but tab, DEL, and C1 in
// UTF-8, among them ESC and CSI) written as "\xHH" / "\u00HH", so that what a bot printed cannot
// retitle, recolour or rewrite the terminal of whoever reads the arbiter's output.
std::string terminal_text(std::string_view text);
// Text for an HTML page, element content or a quoted attribute: & < > " ' as entities.
std::string html_escape(std::string_view text);

}  // namespace arb

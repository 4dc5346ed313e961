#pragma once
// The viewer page: one self-contained HTML file (styles, scripts and the match data inside it,
// nothing fetched) that opens from file:// in any current browser.
#include <string>
#include <string_view>

#include "arbiter/view/match_view.hpp"

namespace arb::view {

// The page for one match: the shell and the renderer of the match's game.
std::string viewer_page(const MatchView& view);

// `text` with <, >, & and quotes as HTML entities.
std::string html_escape(std::string_view text);

// JSON text safe inside a <script> element: every '<' written as \u003c, so that no "</script>"
// or "<!--" in a bot's name or reply ends or bends the element.
std::string script_safe_json(const nlohmann::json& value);

// The page's shell, compiled in from arbiter/view/assets/ (add_viewer_script): its stepping
// script and its styles.
std::string_view shell_script();
std::string_view shell_style();

}  // namespace arb::view

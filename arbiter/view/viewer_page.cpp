#include "arbiter/view/viewer_page.hpp"

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "core/utf8_text.hpp"
#include "rules/registry.hpp"

namespace arb::view {

std::string html_escape(std::string_view text) { return arb::html_escape(text); }

std::string script_safe_json(const nlohmann::json& value) {
    // Invalid UTF-8 from a bot's reply is replaced rather than refused: the page still shows it.
    const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (const char c : text) {
        if (c == '<') out += "\\u003c";
        else out += c;
    }
    return out;
}

std::string viewer_page(const MatchView& view) {
    const std::string title = html_escape(view.data.value("title", view.game));
    return fmt::format(R"PAGE(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{title}</title>
<style>{css}</style>
</head><body>
<header><h1 id="title">{title}</h1></header>
<main>
<section id="stage">
<div class="controls">
<button id="first" title="first (Home)">|&lt;</button><button id="back" title="back (left arrow)">&lt;</button>
<button id="play" title="play / pause (space)">play</button><button id="forward" title="forward (right arrow)">&gt;</button>
<button id="last" title="last (End)">&gt;|</button>
<input id="scrub" type="range" min="0" value="0" aria-label="turn">
<span id="frame-info">step <span id="frame-number">0</span> / <span id="frame-count">0</span></span>
<label>speed <input id="speed" type="range" min="0" value="1" style="width:70px"> <span id="speed-label"></span></label>
<span id="game-controls"></span>
</div>
<div id="turn-label"></div>
<div id="board"></div>
</section>
<aside id="panel">
<h2>Seats</h2><div id="seats"></div>
<h2>Score over the match</h2><canvas id="chart" width="360" height="110"></canvas>
<h2>Faults</h2><div id="faults"></div>
<p class="keys">Keys: space play/pause, left/right step, Home/End first/last, up/down speed. A link to a
step: add #frame=N to the address.</p>
</aside>
</main>
<script type="application/json" id="match-data">{data}</script>
<script>{shell}
{renderer}</script>
</body></html>
)PAGE",
                       fmt::arg("title", title), fmt::arg("css", shell_style()),
                       fmt::arg("data", script_safe_json(view.data)), fmt::arg("shell", shell_script()),
                       fmt::arg("renderer", find_game(view.game).viewer.script));
}

}  // namespace arb::view

// The two pages `arbiter serve` writes itself; their scripts and styles are compiled in from
// assets/ (add_viewer_script), so the binary serves no file from disk.
#include <fmt/format.h>

#include "arbiter/serve/serve_routes.hpp"
#include "arbiter/view/viewer_page.hpp"

namespace arb::serve {

std::string_view serve_script();
std::string_view serve_style();
std::string_view match_script();

std::string live_page() {
    return fmt::format(R"PAGE(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<link rel="icon" href="data:,"><title>arbiter: live</title><style>{css}</style></head><body>
<header><h1>arbiter: tournaments and ladders, live</h1><span id="conn">connecting</span><span id="updated"></span></header>
<main id="content"><p class="note">Waiting for the first state...</p></main>
<script>{js}</script></body></html>
)PAGE",
                       fmt::arg("css", serve_style()), fmt::arg("js", serve_script()));
}

std::string match_page(const std::string& title, const std::string& events) {
    return fmt::format(R"PAGE(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<link rel="icon" href="data:,"><title>{title}</title><style>{css}</style></head><body data-events="{events}">
<header><h1>{title}</h1><a href="/" style="color:#fff">all tournaments</a></header>
<main><section class="card"><p id="status">connecting...</p><p class="note" id="board"></p>
<iframe id="frames" hidden title="the board so far" style="width:100%;height:70vh;border:1px solid #ddd"></iframe>
<table><thead><tr><th>seat</th><th>requests</th><th>time charged</th></tr></thead><tbody id="seats"></tbody></table>
<h3>The exchanges so far (the last 200 lines of its transcript)</h3><pre class="lines" id="lines"></pre></section></main>
<script>{js}</script></body></html>
)PAGE",
                       fmt::arg("title", view::html_escape(title)), fmt::arg("css", serve_style()),
                       fmt::arg("events", view::html_escape(events)), fmt::arg("js", match_script()));
}

}  // namespace arb::serve

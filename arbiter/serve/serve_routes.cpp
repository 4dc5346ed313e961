#include "arbiter/serve/serve_routes.hpp"

#include <regex>

#include <fmt/format.h>

#include "arbiter/view/match_view.hpp"
#include "arbiter/view/viewer_page.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"

namespace arb::serve {
namespace {

using nlohmann::json;

Reply not_found() { return {404, "text/plain; charset=utf-8", "not found\n", std::nullopt}; }

Reply json_reply(const json& value) {
    return {200, "application/json", value.dump(-1, ' ', false, json::error_handler_t::replace), std::nullopt};
}

// Small numbers only: an index never needs more digits, and stoi cannot overflow. Compiled on
// first use, not at every start of the arbiter (2.3 million instructions, whatever the command).
const std::regex& live_path() {
    static const std::regex pattern(
        R"(/(events/|api/|frames/)?live/([0-9]{1,4})/([0-9]{1,5})/(r[0-9]{1,6}-g[0-9]{1,6}-s[0-9]{1,4}))");
    return pattern;
}
const std::regex& view_path() {
    static const std::regex pattern(R"(/view/([0-9]{1,4})/([0-9]{1,15}))");
    return pattern;
}

}  // namespace

Routes::Routes(const ServeOptions& options) : delay_steps_(options.delay_steps) {
    StateOptions state;
    state.delay_steps = options.delay_steps;
    for (std::size_t i = 0; i < options.dbs.size(); ++i)
        sources_.push_back(std::make_unique<SourceState>(static_cast<int>(i), options.dbs[i], state));
}

void Routes::refresh() {
    for (auto& s : sources_) s->refresh();
}

json Routes::state() const {
    json sources = json::array();
    for (const auto& s : sources_) sources.push_back(s->state());
    // No clock in it: a state that did not change is not sent again.
    return {{"delay_steps", delay_steps_}, {"sources", std::move(sources)}};
}

std::optional<json> Routes::live(const std::string& topic) {
    std::smatch m;
    const std::string path = "/" + topic;
    if (!std::regex_match(path, m, live_path()) || m[1].matched) return std::nullopt;
    const auto db = static_cast<std::size_t>(std::stoi(m[2]));
    if (db >= sources_.size()) return std::nullopt;
    return sources_[db]->live_match(static_cast<std::size_t>(std::stoi(m[3])), m[4]);
}

std::string Routes::event(const std::string& topic) {
    json value;
    if (topic.empty()) {
        value = state();
    } else {
        value = live(topic).value_or(json{{"gone", true}});
        value["delay_steps"] = delay_steps_;
    }
    return "data: " + value.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

Reply Routes::handle(const std::string& target) {
    // The query string is not read; the path is compared as sent, never decoded, so that an
    // encoded ".." or "/" matches no route.
    const std::string path = target.substr(0, target.find('?'));
    if (path == "/" || path == "/index.html") return {200, "text/html; charset=utf-8", live_page(), std::nullopt};
    if (path == "/events") return {200, "", "", std::string()};
    if (path == "/favicon.ico") return {204, "image/x-icon", "", std::nullopt};  // none: asked by every browser
    if (path == "/api/state") return json_reply(state());
    std::smatch m;
    if (std::regex_match(path, m, view_path())) {
        const auto db = static_cast<std::size_t>(std::stoi(m[1]));
        if (db >= sources_.size()) return not_found();
        const auto folder = sources_[db]->match_folder(std::stoll(m[2]));
        if (!folder) return not_found();
        try {
            return {200, "text/html; charset=utf-8", view::viewer_page(view::load_match_view(*folder)), std::nullopt};
        } catch (const UserError& e) {
            return {404, "text/plain; charset=utf-8", std::string("no viewer for this match: ") + e.what() + "\n",
                    std::nullopt};
        }
    }
    if (std::regex_match(path, m, live_path())) {
        const std::string topic = path.substr(path.find("live/"));
        const auto state = live(topic);
        if (!state) return not_found();
        if (m[1] == "events/") return {200, "", "", topic};
        if (m[1] == "api/") return json_reply(*state);
        if (m[1] == "frames/") {
            const auto page = sources_[static_cast<std::size_t>(std::stoi(m[2]))]->live_viewer(
                static_cast<std::size_t>(std::stoi(m[3])), m[4]);
            return page ? Reply{200, "text/html; charset=utf-8", *page, std::nullopt} : not_found();
        }
        return {200, "text/html; charset=utf-8",
                match_page((*state).value("tournament", std::string()) + " " + std::string(m[4]), "/events/" + topic),
                std::nullopt};
    }
    return not_found();
}

}  // namespace arb::serve

#pragma once
// The served addresses, each matched whole against a fixed pattern (no path of the request ever
// names a file):
//   /                              the live page
//   /events                        its server-sent events: the whole state, whenever it changes
//   /api/state                     the same state once, as JSON
//   /view/DB/ID                    a stored match's viewer (the page `arbiter view` writes)
//   /live/DB/T/NAME                a running match of tournament T of database DB
//   /events/live/DB/T/NAME         its events; /api/live/DB/T/NAME its state once
// Anything else is 404.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/serve/http_server.hpp"
#include "arbiter/serve/serve_state.hpp"

namespace arb::serve {

struct Reply {
    int status = 200;
    std::string content_type = "text/html; charset=utf-8";
    std::string body;
    std::optional<std::string> stream;  // set: the reply is this topic's event stream
};

class Routes {
public:
    explicit Routes(const ServeOptions& options);
    Reply handle(const std::string& target);
    // Reads the files again (once per tick, for every client).
    void refresh();
    // The event of a topic ("" the page's, "live/DB/T/NAME" a running match's): "data: JSON\n\n".
    std::string event(const std::string& topic);

private:
    nlohmann::json state() const;
    std::optional<nlohmann::json> live(const std::string& topic);

    int delay_steps_;
    std::vector<std::unique_ptr<SourceState>> sources_;
};

// The live page and a running match's page (arbiter/serve/assets), complete HTML.
std::string live_page();
std::string match_page(const std::string& title, const std::string& events);

}  // namespace arb::serve

#include "rating/rating_output.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace arb::rating {

std::string format_ratings_json(const RatingResult& result, const std::string& intervals) {
    nlohmann::json rows = nlohmann::json::array();
    for (const RatingRow& r : result.rows) {
        rows.push_back({{"rank", r.rank}, {"name", r.name}, {"elo", r.elo}, {"plus", r.plus}, {"minus", r.minus},
                        {"games", r.games}, {"score", r.score}, {"oppo", r.oppo}, {"draws", r.draws},
                        {"wins", r.wins}, {"losses", r.losses}, {"draw_count", r.draw_count}});
    }
    nlohmann::json out = {{"advantage", result.advantage}, {"drawelo", result.drawelo}, {"scale", result.scale},
                          {"offset", result.offset},       {"sweeps", result.sweeps},   {"converged", result.converged},
                          {"rows", std::move(rows)}};
    if (!intervals.empty()) out["intervals"] = intervals;
    return out.dump(2) + "\n";
}

namespace {
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char ch : text) {
        if (ch == '"') quoted += '"';
        quoted += ch;
    }
    return quoted + '"';
}
}  // namespace

std::string format_ratings_csv(const RatingResult& result) {
    std::string out = "rank,name,elo,plus,minus,games,score,oppo,draws,wins,losses,draw_count\n";
    for (const RatingRow& r : result.rows) {
        out += fmt::format("{},{},{:.2f},{:.2f},{:.2f},{},{:.6f},{:.2f},{:.6f},{},{},{}\n", r.rank, csv_field(r.name),
                           r.elo, r.plus, r.minus, r.games, r.score, r.oppo, r.draws, r.wins, r.losses, r.draw_count);
    }
    return out;
}

Snapshot make_snapshot(const std::string& label, const std::string& game, const RatingResult& result,
                       const EloOptions& options) {
    Snapshot s;
    s.label = label;
    s.game = game;
    s.params_json = nlohmann::json{{"advantage", result.advantage},
                                   {"drawelo", result.drawelo},
                                   {"prior", options.prior},
                                   {"fit_advantage", options.fit_advantage},
                                   {"fit_drawelo", options.fit_drawelo},
                                   {"confidence", options.confidence},
                                   {"scale", result.scale},
                                   {"offset", result.offset}}
                        .dump();
    for (const RatingRow& r : result.rows)
        s.rows.push_back({r.name, r.rank, r.elo, r.plus, r.minus, r.games, r.score, r.draws});
    return s;
}

}  // namespace arb::rating

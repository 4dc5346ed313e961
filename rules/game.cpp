#include "rules/game.hpp"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace {

bool parses_as_integer(const std::string& v) {
    std::int64_t out{};
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && p == v.data() + v.size();
}

bool parses_as_number(const std::string& v) {
    try {
        std::size_t used = 0;
        (void)std::stod(v, &used);
        return used == v.size();
    } catch (...) {
        return false;
    }
}

bool parses_as_flag(const std::string& v) {
    return v == "true" || v == "false" || v == "1" || v == "0" || v == "yes" || v == "no" || v == "on" || v == "off";
}


std::string dashed(std::string key) {
    std::replace(key.begin(), key.end(), '_', '-');
    return key;
}

}  // namespace

const GameOptionSpec* find_option_spec(const std::vector<GameOptionSpec>& specs, const std::string& name) {
    for (const auto& s : specs)
        if (s.key == name) return &s;
    const std::string wanted = dashed(name);
    for (const auto& s : specs) {
        if (dashed(s.key) == wanted) return &s;
        for (const auto& alias : s.aliases)
            if (dashed(alias) == wanted) return &s;
    }
    return nullptr;
}

GameOptions::GameOptions(const std::vector<GameOptionSpec>& specs, std::map<std::string, std::string> named) {
    for (const auto& [key, value] : named) {
        if (find_option_spec(specs, key) == nullptr) {
            // '_' and '-' are one for the hint: keys are written both ways.
            std::vector<std::string> keys;
            for (const auto& s : specs) keys.push_back(dashed(s.key));
            const std::string near = closest_name(dashed(key), keys);
            std::string hint;
            for (const auto& s : specs)
                if (!near.empty() && dashed(s.key) == near) hint = " (did you mean '" + s.key + "'?)";
            throw UserError("unknown game option '" + key + "'" + hint);
        }
    }
    // Every name to its key; one option given under two names must agree.
    std::map<std::string, std::string> given;
    std::map<std::string, std::string> given_as;
    for (const auto& [key, value] : named) {
        const GameOptionSpec* spec = find_option_spec(specs, key);
        auto [at, fresh] = given.emplace(spec->key, value);
        if (!fresh && at->second != value) {
            throw UserError("game option '" + spec->key + "' is given twice, as '" + given_as[spec->key] + "' = '" +
                            at->second + "' and as '" + key + "' = '" + value + "'");
        }
        given_as.emplace(spec->key, key);
    }
    for (const auto& spec : specs) {
        kinds_[spec.key] = spec.kind;
        auto it = given.find(spec.key);
        std::string value = it != given.end() ? it->second : spec.default_value;
        if (it == given.end() && spec.required) {
            throw UserError("game option '" + spec.key + "' is required: " + spec.help);
        }
        if (!value.empty()) {
            const bool ok = spec.kind == OptionKind::integer  ? parses_as_integer(value)
                            : spec.kind == OptionKind::number ? parses_as_number(value)
                            : spec.kind == OptionKind::flag   ? parses_as_flag(value)
                                                              : true;
            if (!ok) {
                static const char* names[] = {"an integer", "a number", "text", "a path", "true or false"};
                throw UserError("game option '" + spec.key + "' must be " + names[static_cast<int>(spec.kind)] +
                                ", got '" + value + "'");
            }
        }
        values_[spec.key] = std::move(value);
    }
}

bool GameOptions::has(const std::string& key) const {
    auto it = values_.find(key);
    return it != values_.end() && !it->second.empty();
}

const std::string& GameOptions::text(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw std::logic_error("game option '" + key + "' is not declared");
    return it->second;
}

std::int64_t GameOptions::integer(const std::string& key) const {
    const std::string& v = text(key);
    std::int64_t out = 0;
    std::from_chars(v.data(), v.data() + v.size(), out);
    return out;
}

double GameOptions::number(const std::string& key) const {
    const std::string& v = text(key);
    return v.empty() ? 0.0 : std::stod(v);
}

bool GameOptions::flag(const std::string& key) const {
    const std::string& v = text(key);
    return v == "true" || v == "1" || v == "yes" || v == "on";
}

std::filesystem::path GameOptions::path(const std::string& key) const { return text(key); }

std::vector<SeatPlan> one_seat_per_bot(const MatchRequest& request, const TimeControl& time) {
    std::vector<SeatPlan> seats;
    for (int b = 0; b < static_cast<int>(request.bots.size()); ++b) {
        SeatPlan seat;
        seat.bot = b;
        seat.label = "p" + std::to_string(b);
        seat.time = time;
        seats.push_back(std::move(seat));
    }
    return seats;
}

std::string GameOptions::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : values_) j[k] = v;
    return j.dump();
}

}  // namespace arb

#include "arbiter/tournament/tournament_config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "arbiter/tournament/install_layout.hpp"
#include "core/did_you_mean.hpp"
#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb::tournament {
namespace {

using nlohmann::json;

// An input iterator over the config text that counts the newlines the JSON lexer consumed, so
// the SAX handler knows the line of the token it is told about.
class LineCountingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    LineCountingIterator(const char* at, int* line) : at_(at), line_(line) {}
    reference operator*() const { return *at_; }
    LineCountingIterator& operator++() {
        if (*at_ == '\n') ++*line_;
        ++at_;
        return *this;
    }
    LineCountingIterator operator++(int) {
        auto copy = *this;
        ++*this;
        return copy;
    }
    // `!=` is rewritten from it (C++20).
    friend bool operator==(const LineCountingIterator& a, const LineCountingIterator& b) { return a.at_ == b.at_; }

private:
    const char* at_;
    int* line_;
};

// Builds the DOM and remembers the line of every key and array element (by JSON pointer).
class LocatingSax : public nlohmann::json_sax<json> {
public:
    explicit LocatingSax(const int* line) : line_(line) {}

    json root;
    std::map<std::string, int> lines;  // "/bots/2" -> line
    std::string error;

    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return put(json(v)); }
    bool string(string_t& v) override { return put(json(v)); }
    bool binary(binary_t&) override { return put(json(nullptr)); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        pending_key_ = k;
        lines[path_ + "/" + k] = *line_;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        error = ex.what();
        return false;
    }

private:
    struct Frame {
        json* node;
        std::string path;
    };

    // Where the next value goes, and its pointer path.
    json* slot(std::string& path) {
        if (stack_.empty()) {
            path = "";
            return &root;
        }
        Frame& top = stack_.back();
        if (top.node->is_object()) {
            path = top.path + "/" + pending_key_;
            return &(*top.node)[pending_key_];
        }
        path = top.path + "/" + std::to_string(top.node->size());
        lines[path] = *line_;
        top.node->push_back(nullptr);
        return &top.node->back();
    }
    bool put(json value) {
        std::string path;
        *slot(path) = std::move(value);
        return true;
    }
    bool open(json empty) {
        // Every level lengthens the path kept for each value below it: deep nesting would cost
        // memory quadratic in the file's size. Real configs nest 3 levels.
        if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            error = fmt::format("line {}: nested deeper than {} levels", *line_, kMaxJsonDepth);
            return false;
        }
        std::string path;
        json* node = slot(path);
        *node = std::move(empty);
        stack_.push_back({node, path});
        path_ = path;
        return true;
    }
    bool close() {
        stack_.pop_back();
        path_ = stack_.empty() ? "" : stack_.back().path;
        return true;
    }

    const int* line_;
    std::vector<Frame> stack_;
    std::string path_;
    std::string pending_key_;
};

const std::vector<std::string>& known_keys() {
    static const std::vector<std::string> keys = {
        "name",    "game",        "pairing",    "format",     "seed",        "rounds",    "time_budget",
        "players", "random_rounds", "vary_cyclic_order", "seating", "all_seatings", "bots",
        "house_bots", "challengers", "options", "memory_mib", "freeze_idle", "out", "jobs", "ladder", "sandbox",
        "seat_users", "disk_mib", "folder_mib", "pass_env", "allow_syscalls", "maps", "fields"};
    return keys;
}

// Reads the parsed document field by field, naming the file and line in every error.
class ConfigReader {
public:
    ConfigReader(const json& root, const std::map<std::string, int>& lines, std::string file)
        : root_(root), lines_(lines), file_(std::move(file)) {}

    std::string where(const std::string& pointer) const {
        auto it = lines_.find(pointer);
        return it == lines_.end() ? file_ : fmt::format("{}:{}", file_, it->second);
    }
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw UserError(fmt::format("{}: {}", where(pointer), what));
    }

    TournamentConfig read() {
        if (!root_.is_object()) throw UserError(file_ + ": a tournament config must be a JSON object");
        for (const auto& [key, value] : root_.items()) {
            if (std::find(known_keys().begin(), known_keys().end(), key) != known_keys().end()) continue;
            fail("/" + key, fmt::format("unknown key '{}'{}", key, did_you_mean(key, known_keys())));
        }
        TournamentConfig c;
        if (has("name")) c.name = text("name");
        c.game = has("game") ? text("game") : "";
        if (has("game")) c.game_location = where("/game");
        // 'format' is the earlier name of 'pairing', still read with the same meaning.
        if (has("pairing") && has("format")) fail("/format", "give 'pairing' or its old name 'format', not both");
        if (const char* key = has("pairing") ? "pairing" : has("format") ? "format" : nullptr) {
            const std::string f = text(key);
            c.pairing_given = true;
            if (f == "groups") c.format = Format::groups;
            else if (f == "round-robin") c.format = Format::round_robin;
            else if (f == "gauntlet") c.format = Format::gauntlet;
            else fail(std::string("/") + key, fmt::format("'{}' must be one of groups, round-robin, gauntlet; got '{}'", key, f));
        }
        if (has("seed")) c.seed = unsigned_integer("seed");
        if (has("rounds")) c.rounds = static_cast<int>(integer("rounds", 1, kMaxRounds));
        if (has("time_budget")) c.time_budget_s = number("time_budget", 0.001);
        if (has("players")) c.players = static_cast<int>(integer("players", 1, kMaxPlayers));
        if (has("random_rounds")) c.random_rounds = static_cast<int>(integer("random_rounds", 0, kMaxRounds));
        if (has("vary_cyclic_order")) c.vary_cyclic_order = boolean("vary_cyclic_order");
        if (has("seating")) {
            const std::string s = text("seating");
            if (s == "rotations") c.seating = Seating::rotations;
            else if (s == "permutations") c.seating = Seating::permutations;
            else fail("/seating", "'seating' must be rotations or permutations; got '" + s + "'");
        }
        if (has("all_seatings")) c.all_seatings = boolean("all_seatings");
        if (has("bots")) c.bots = bots("bots");
        if (has("house_bots")) c.house_bots = bots("house_bots");
        if (has("challengers")) c.challengers = texts("challengers");
        if (has("options")) {
            const json& o = root_.at("options");
            if (!o.is_object()) fail("/options", "'options' must be an object of game options");
            for (const auto& [key, value] : o.items()) {
                const std::string pointer = "/options/" + key;
                if (value.is_string()) c.options[key] = value.get<std::string>();
                else if (value.is_boolean()) c.options[key] = value.get<bool>() ? "true" : "false";
                else if (value.is_number_integer()) c.options[key] = std::to_string(value.get<std::int64_t>());
                else if (value.is_number()) c.options[key] = fmt::format("{}", value.get<double>());
                else fail(pointer, "game option '" + key + "' must be a string, number or boolean");
                option_locations[key] = where(pointer);
            }
        }
        if (has("memory_mib")) c.memory_mib = integer("memory_mib", 0, kMaxMemoryMib);
        if (has("freeze_idle")) c.freeze_idle = boolean("freeze_idle");
        if (has("out")) c.out_dir = text("out");
        if (has("jobs")) c.jobs = static_cast<int>(integer("jobs", 0, kMaxJobs));
        if (has("sandbox")) {
            try {
                c.sandbox = sandbox_mode_from_string(text("sandbox"));
            } catch (const UserError& e) {
                fail("/sandbox", e.what());
            }
        }
        if (has("seat_users")) c.seat_users = boolean("seat_users");
        if (has("disk_mib")) c.disk_mib = integer("disk_mib", 0, kMaxMemoryMib);
        if (has("folder_mib")) c.folder_mib = integer("folder_mib", 0, std::int64_t{1} << 30);
        if (has("pass_env")) c.pass_env = texts("pass_env");
        if (has("allow_syscalls")) c.allow_syscalls = texts("allow_syscalls");
        if (has("ladder")) c.ladder = ladder();
        if (has("maps") && has("fields")) fail("/fields", "give 'maps' or 'fields', not both");
        if (const char* key = has("maps") ? "maps" : has("fields") ? "fields" : nullptr) {
            // One source or a list of them; each a file, a folder or a glob.
            c.map_sources = at(key).is_string() ? std::vector<std::string>{text(key)} : texts(key);
            c.map_sources_key = key;
            c.map_sources_where = where(std::string("/") + key);
        }
        return c;
    }

    std::map<std::string, std::string> option_locations;

private:
    bool has(const std::string& key) const { return root_.contains(key); }
    const json& at(const std::string& key) const { return root_.at(key); }

    std::string text(const std::string& key) const {
        if (!at(key).is_string()) fail("/" + key, "'" + key + "' must be a string");
        return at(key).get<std::string>();
    }
    std::int64_t integer(const std::string& key, std::int64_t minimum, std::int64_t maximum) const {
        const json& value = at(key);
        // An unsigned value above INT64_MAX would wrap in get<int64_t>: compare it unsigned first.
        const bool too_big = value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(maximum);
        if (!value.is_number_integer() || too_big || value.get<std::int64_t>() < minimum ||
            value.get<std::int64_t>() > maximum)
            fail("/" + key, fmt::format("'{}' must be an integer from {} to {}", key, minimum, maximum));
        return value.get<std::int64_t>();
    }
    std::uint64_t unsigned_integer(const std::string& key) const {
        if (!at(key).is_number_unsigned()) fail("/" + key, "'" + key + "' must be a non-negative integer");
        return at(key).get<std::uint64_t>();
    }
    double number(const std::string& key, double minimum) const {
        if (!at(key).is_number()) fail("/" + key, "'" + key + "' must be a number (seconds)");
        const double v = at(key).get<double>();
        if (v < minimum) fail("/" + key, fmt::format("'{}' must be positive", key));
        return v;
    }
    bool boolean(const std::string& key) const {
        if (!at(key).is_boolean()) fail("/" + key, "'" + key + "' must be true or false");
        return at(key).get<bool>();
    }
    std::vector<std::string> texts(const std::string& key) const {
        if (!at(key).is_array()) fail("/" + key, "'" + key + "' must be a list of strings");
        std::vector<std::string> out;
        for (std::size_t i = 0; i < at(key).size(); ++i) {
            const json& item = at(key)[i];
            if (!item.is_string()) fail(fmt::format("/{}/{}", key, i), fmt::format("'{}' item {} must be a string", key, i + 1));
            out.push_back(item.get<std::string>());
        }
        return out;
    }
    rating::SprtParams sprt_setting(const std::string& pointer, const json& value) const {
        if (!value.is_string()) fail(pointer, "'ladder.sprt' must be a string like \"elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized\"");
        try {
            return rating::parse_sprt(value.get<std::string>());
        } catch (const UserError& e) {
            const std::string message = e.what();  // "--sprt: ..." or "--sprt wants ..."
            fail(pointer, "'ladder.sprt'" + message.substr(std::string("--sprt").size()));
        }
    }
    LadderSettings ladder() const {
        const json& l = at("ladder");
        if (!l.is_object()) fail("/ladder", "'ladder' must be an object");
        static const std::vector<std::string> keys = {"target_interval", "max_matches", "min_rounds", "better_los",
                                                      "worse_los", "sprt"};
        LadderSettings s;
        for (const auto& [key, value] : l.items()) {
            const std::string pointer = "/ladder/" + key;
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                fail(pointer, "unknown key 'ladder." + key + "'" + did_you_mean(key, keys));
            if (key == "sprt") {
                s.sprt = sprt_setting(pointer, value);
                continue;
            }
            const bool integral = key == "max_matches" || key == "min_rounds";
            if (integral ? !value.is_number_integer() : !value.is_number())
                fail(pointer, "'ladder." + key + "' must be " + (integral ? "an integer" : "a number"));
            const double v = value.get<double>();
            const bool los = key == "better_los" || key == "worse_los";
            const double top = los                   ? 1.0
                               : key == "max_matches" ? static_cast<double>(kMaxLadderMatches)
                               : key == "min_rounds"  ? static_cast<double>(kMaxRounds)
                                                      : 1e9;
            if (!(v >= 0 && v <= top)) fail(pointer, fmt::format("'ladder.{}' must be from 0 to {}", key, top));
            if (key == "target_interval") s.target_interval = v;
            if (key == "max_matches") s.max_matches = static_cast<int>(v);
            if (key == "min_rounds") s.min_rounds = static_cast<int>(v);
            if (key == "better_los") s.better_los = v;
            if (key == "worse_los") s.worse_los = v;
        }
        if (s.worse_los > s.better_los) {
            fail("/ladder", fmt::format("'ladder.worse_los' ({}) must not be above 'ladder.better_los' ({})", s.worse_los,
                                        s.better_los));
        }
        return s;
    }
    std::vector<BotSpec> bots(const std::string& key) const {
        std::vector<BotSpec> out;
        const auto specs = texts(key);
        for (std::size_t i = 0; i < specs.size(); ++i) {
            try {
                out.push_back(parse_bot_spec(expand_variables(specs[i])));
            } catch (const UserError& e) {
                fail(fmt::format("/{}/{}", key, i), e.what());
            }
        }
        return out;
    }

    const json& root_;
    const std::map<std::string, int>& lines_;
    std::string file_;
};

}  // namespace

const char* to_string(Format format) {
    switch (format) {
        case Format::groups: return "groups";
        case Format::round_robin: return "round-robin";
        case Format::gauntlet: return "gauntlet";
    }
    return "?";
}

const char* to_string(Seating seating) { return seating == Seating::rotations ? "rotations" : "permutations"; }

std::string expand_variables(const std::string& text) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, 2, "${") == 0) {
            const std::size_t end = text.find('}', i + 2);
            if (end == std::string::npos) throw UserError("unterminated ${ in '" + text + "'");
            const std::string name = text.substr(i + 2, end - i - 2);
            if (const char* value = std::getenv(name.c_str())) out += value;
            else if (name == "ARBITER_BOTS") out += sample_bots_dir().string();
            else if (name == "ARBITER_DATA") out += game_data_dir().string();
            else throw UserError("'" + text + "' uses ${" + name + "}, which is not set in the environment");
            i = end + 1;
        } else {
            out += text[i++];
        }
    }
    return out;
}

std::string TournamentConfig::identity_json() const {
    nlohmann::ordered_json j;
    j["game"] = game;
    j["format"] = to_string(format);
    j["seed"] = seed;
    j["rounds"] = rounds ? nlohmann::ordered_json(*rounds) : nlohmann::ordered_json(nullptr);
    j["players"] = players;
    if (format == Format::groups) {
        j["random_rounds"] = random_rounds;
        j["vary_cyclic_order"] = vary_cyclic_order;
    }
    j["seating"] = to_string(seating);
    j["all_seatings"] = all_seatings;
    auto specs = [](const std::vector<BotSpec>& bots) {
        auto a = nlohmann::ordered_json::array();
        for (const auto& b : bots) a.push_back(to_spec_string(b));
        return a;
    };
    j["bots"] = specs(bots);
    j["house_bots"] = specs(house_bots);
    j["challengers"] = challengers;
    j["options"] = options;
    if (!map_pool.empty()) {
        // Keyed as written ("maps" or "fields"); absent without a pool, so older tournaments resume.
        auto pool = nlohmann::ordered_json::array();
        for (const auto& m : map_pool) pool.push_back(m.path);
        j[map_sources_key.empty() ? "maps" : map_sources_key] = pool;
    }
    j["memory_mib"] = memory_mib;
    j["freeze_idle"] = freeze_idle;
    return j.dump();
}

TournamentConfig parse_tournament_config(const std::string& text, const std::string& file_label) {
    int line = 1;
    LocatingSax sax(&line);
    const char* begin = text.data();
    const bool ok = json::sax_parse(LineCountingIterator(begin, &line), LineCountingIterator(begin + text.size(), &line),
                                    &sax, json::input_format_t::json, true, /*ignore_comments=*/true);
    if (!ok) {
        // nlohmann's message already carries "line L, column C".
        std::string message = sax.error;
        const auto at = message.find("] ");
        if (at != std::string::npos) message = message.substr(at + 2);
        throw UserError(file_label + ": not valid JSON: " + message);
    }
    ConfigReader reader(sax.root, sax.lines, file_label);
    TournamentConfig config = reader.read();
    config.option_locations = reader.option_locations;
    return config;
}

TournamentConfig read_tournament_config(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UserError("cannot read tournament config '" + file.string() + "'");
    std::stringstream buffer;
    buffer << in.rdbuf();
    TournamentConfig config = parse_tournament_config(buffer.str(), file.string());
    if (config.name.empty()) config.name = file.stem().string();
    return config;
}

void resolve_relative_paths(TournamentConfig& c, const std::filesystem::path& base,
                            const std::vector<GameOptionSpec>& specs) {
    const auto from_base = [&base](const std::filesystem::path& p) {
        return p.empty() || p.is_absolute() ? p : (base / p).lexically_normal();
    };
    for (auto* bots : {&c.bots, &c.house_bots}) {
        for (BotSpec& bot : *bots) {
            if (!bot.dir.empty()) {
                bot.dir = from_base(bot.dir);  // a program relative to dir= stays relative to it
            } else if (!bot.argv.empty() && bot.argv[0].find('/') != std::string::npos) {
                bot.argv[0] = from_base(bot.argv[0]).string();  // `command` keeps the text as written
            }
        }
    }
    for (auto& [key, value] : c.options) {
        const GameOptionSpec* spec = find_option_spec(specs, key);  // the key or an older name
        if (spec != nullptr && spec->kind == OptionKind::path) value = from_base(expand_variables(value)).string();
    }
    if (!c.out_dir.empty()) c.out_dir = from_base(c.out_dir).string();
    if (!c.map_sources.empty()) c.map_sources_base = base.string();
}

namespace {

// Did-you-mean for a game option, '_' and '-' taken as one (a key is written either way).
std::string option_hint(const std::string& key, const std::vector<std::string>& keys) {
    const auto dashed = [](std::string k) {
        std::replace(k.begin(), k.end(), '_', '-');
        return k;
    };
    std::vector<std::string> dashed_keys;
    for (const auto& k : keys) dashed_keys.push_back(dashed(k));
    const std::string near = closest_name(dashed(key), dashed_keys);
    if (near.empty()) return "";
    return fmt::format(" (did you mean '{}'?)", keys[std::find(dashed_keys.begin(), dashed_keys.end(), near) - dashed_keys.begin()]);
}

}  // namespace

void check_game_options(const TournamentConfig& c, const std::string& game, const std::vector<GameOptionSpec>& specs) {
    const auto place = [&c](const std::string& key) {
        const auto at = c.option_locations.find(key);
        return at == c.option_locations.end() ? std::string() : at->second + ": ";
    };
    std::vector<std::string> keys;
    for (const auto& spec : specs) keys.push_back(spec.key);
    for (const auto& [key, value] : c.options) {
        if (find_option_spec(specs, key) != nullptr) continue;  // the key or an older name
        throw UserError(fmt::format("{}unknown option '{}' for game '{}'{}", place(key), key, game, option_hint(key, keys)));
    }
    for (const auto& [key, value] : c.options) {
        try {
            (void)GameOptions(specs, {{key, value}});
        } catch (const UserError& e) {
            // A missing required option is judged on the whole set below, not per key.
            if (std::string(e.what()).find("is required") == std::string::npos) throw UserError(place(key) + e.what());
        }
        // A map or field that cannot be read is said here, at its line, not by the first match.
        const GameOptionSpec* spec = find_option_spec(specs, key);
        const std::string why = spec->kind == OptionKind::path && !value.empty() ? unreadable_reason(value) : "";
        if (!why.empty()) throw UserError(fmt::format("{}option '{}': cannot read '{}': {}", place(key), key, value, why));
    }
    (void)GameOptions(specs, c.options_with_map(c.first_map()));  // a pool stands for its option
}

namespace {

// Every map of the pool must be playable: a count the groups take, and no more bots than there are.
void check_pool_counts(const TournamentConfig& c, int bots) {
    for (const PoolMap& m : c.map_pool) {
        if (m.players == 0) continue;
        const std::string name = fmt::format("{} '{}' is for {} players", c.map_option, map_name(m.path), m.players);
        if (c.groups_by_map && m.players > bots)
            throw UserError(fmt::format("{}, but the tournament has {} bots: no group can fill it", name, bots));
        if (c.groups_by_map || m.players == c.players) continue;
        if (c.format == Format::groups)
            throw UserError(fmt::format("{}; groups of {} (players) cannot play it (leave 'players' out and the maps size the groups)",
                                        name, c.players));
        throw UserError(fmt::format("{}; a {} of {}-player matches cannot play it (pairing groups plays every count)", name,
                                    to_string(c.format), c.players));
    }
}

}  // namespace

void validate(TournamentConfig& c, int game_min_bots, int game_max_bots) {
    if (c.name.empty()) throw UserError("the tournament needs a name (config key 'name' or --tournament)");
    // Values given on the command line skip the config reader's checks.
    const auto check = [](const char* what, std::int64_t v, std::int64_t lo, std::int64_t hi) {
        if (v < lo || v > hi) throw UserError(fmt::format("{} must be from {} to {}, not {}", what, lo, hi, v));
    };
    if (c.rounds) check("rounds", *c.rounds, 1, kMaxRounds);
    check("random rounds", c.random_rounds, 0, kMaxRounds);
    check("players", c.players, 0, kMaxPlayers);
    check("memory (MiB)", c.memory_mib, 0, kMaxMemoryMib);
    check("jobs", c.jobs, 0, kMaxJobs);
    check("ladder max matches", c.ladder.max_matches, 0, kMaxLadderMatches);
    check("ladder min rounds", c.ladder.min_rounds, 0, kMaxRounds);
    if (c.name.find('/') != std::string::npos) throw UserError("tournament name '" + c.name + "' must not contain '/'");
    const bool players_given = c.players != 0;
    const std::vector<int> counts = player_counts(c.map_pool);
    // Without --players, a pool's maps size the groups (groups), or its one count the matches.
    c.groups_by_map = c.format == Format::groups && !counts.empty() && !players_given;
    if (c.players == 0 && !counts.empty() && (c.groups_by_map || counts.size() == 1)) c.players = counts.front();
    if (c.players == 0) c.players = c.format == Format::groups ? 4 : game_min_bots;
    if (c.players < game_min_bots || c.players > game_max_bots) {
        throw UserError(fmt::format("game '{}' takes {} to {} bots per match; 'players' is {}", c.game, game_min_bots,
                                    game_max_bots, c.players));
    }
    if (!c.rounds && !c.time_budget_s) throw UserError("give 'rounds' or 'time_budget' (seconds), or both");
    std::vector<std::string> names;
    for (const auto& b : c.bots) names.push_back(b.name);
    for (const auto& b : c.house_bots) names.push_back(b.name);
    for (std::size_t i = 0; i < names.size(); ++i)
        for (std::size_t j = i + 1; j < names.size(); ++j)
            if (names[i] == names[j]) throw UserError("two bots are named '" + names[i] + "'");
    const int field = static_cast<int>(c.bots.size());
    if (!counts.empty()) check_pool_counts(c, field + static_cast<int>(c.house_bots.size()));
    switch (c.format) {
        case Format::groups: {
            if (c.groups_by_map) break;  // those left over sit out in turn (map_pool.hpp)
            const int missing = (c.players - field % c.players) % c.players;
            if (field == 0) throw UserError("the tournament has no bots");
            if (missing <= static_cast<int>(c.house_bots.size())) break;
            // Too few bots for one group and no pairing asked for (two bots for a two-player game):
            // a round-robin of matches of the given size, or of the game's smallest, plays them.
            const int rr_players = players_given ? c.players : game_min_bots;
            if (!c.pairing_given && c.house_bots.empty() && field < c.players && field >= rr_players) {
                spdlog::info("{} bots cannot fill groups of {}: playing a round-robin of {}-player matches "
                             "(--pairing round-robin --players {})",
                             field, c.players, rr_players, rr_players);
                c.format = Format::round_robin;
                c.players = rr_players;
                break;
            }
            throw UserError(fmt::format("{} bots need {} house bot(s) to fill groups of {}; there are {} (add --house-bot, "
                                        "or play --pairing round-robin --players {})",
                                        field, missing, c.players, c.house_bots.size(),
                                        std::min(field, std::max(game_min_bots, 2))));
        }
        case Format::round_robin:
            if (field + static_cast<int>(c.house_bots.size()) < c.players)
                throw UserError(fmt::format("round-robin of {}-player matches needs at least {} bots", c.players, c.players));
            break;
        case Format::gauntlet: {
            if (c.challengers.empty()) throw UserError("a gauntlet needs 'challengers' (bot names)");
            for (const auto& ch : c.challengers)
                if (std::find(names.begin(), names.end(), ch) == names.end())
                    throw UserError("challenger '" + ch + "' is not one of the bots");
            const int opponents = static_cast<int>(names.size() - c.challengers.size());
            if (opponents < c.players - 1)
                throw UserError(fmt::format("a gauntlet of {}-player matches needs at least {} opponents", c.players,
                                            c.players - 1));
            break;
        }
    }
    if (c.seating == Seating::permutations && std::max(c.players, counts.empty() ? 0 : counts.back()) > 6)
        throw UserError("'seating': permutations of more than 6 players would be too many matches; use rotations");
}

}  // namespace arb::tournament

// The Ants text for the bots (ants.md section 2): the turn-0 block, each player's per-turn state
// lines (w, h, a, f, d) with renumbered owners, and the stream format's start and full state
// (8.3). The per-turn text is written through per-row and per-column digit tables.
#include "rules/ants/ants_engine.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "rules/ants/ants_engine_internal.hpp"

namespace arb::ants {

namespace {

void append_int(std::string& out, long long v) {
    char buf[24];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ptr);
}


}  // namespace

std::string AntsEngine::player_start_text() const {
    std::string out;
    auto line = [&](const char* key, long long v) {
        out += key;
        out += ' ';
        append_int(out, v);
        out += '\n';
    };
    line("turn", 0);
    line("loadtime", params_.loadtime_ms);
    line("turntime", params_.turntime_ms);
    line("rows", rows_);
    line("cols", cols_);
    line("turns", params_.turns);
    line("viewradius2", params_.viewradius2);
    line("attackradius2", params_.attackradius2);
    line("spawnradius2", params_.spawnradius2);
    line("player_seed", params_.player_seed);
    return out;
}

void AntsEngine::rebuild_state_objects() {
    // Within each kind the original sorts by (row, col, owner) = (cell, owner): sort packed keys.
    state_objects_.clear();
    std::vector<std::uint64_t>& keys = sort_keys_;
    auto emit = [&](char kind) {
        std::sort(keys.begin(), keys.end());
        for (std::uint64_t k : keys)
            push_state_object(kind, static_cast<int>(k >> 8), static_cast<int>(k & 0xff) - 1);
        keys.clear();
    };
    // Standing hills, live ants and food each sit on distinct squares, so their key order is
    // the square order: mark the squares in a bitmap and walk it instead of sorting. A square
    // marked twice (not expected) falls back to the sort, which gives the same order anyway.
    auto emit_distinct = [&](char kind) {
        std::size_t lo = cell_bits_.size(), hi = 0;
        bool distinct = true;
        for (std::uint64_t k : keys) {
            const std::size_t c = static_cast<std::size_t>(k >> 8), w = c >> 6;
            const std::uint64_t bit = std::uint64_t{1} << (c & 63);
            if (cell_bits_[w] & bit) { distinct = false; break; }
            cell_bits_[w] |= bit;
            cell_key_owner_[c] = static_cast<std::uint8_t>(k & 0xff);
            lo = std::min(lo, w);
            hi = std::max(hi, w);
        }
        if (!distinct) {
            std::fill(cell_bits_.begin(), cell_bits_.end(), 0);
            emit(kind);
            return;
        }
        for (std::size_t w = lo; w <= hi && w < cell_bits_.size(); ++w) {
            for (std::uint64_t bits = cell_bits_[w]; bits != 0; bits &= bits - 1) {
                const int c = static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
                push_state_object(kind, c, static_cast<int>(cell_key_owner_[c]) - 1);
            }
            cell_bits_[w] = 0;
        }
        keys.clear();
    };
    auto key = [](int cell, int owner) { return (static_cast<std::uint64_t>(cell) << 8) | static_cast<std::uint64_t>(owner + 1); };
    keys.clear();
    for (const auto& hill : hills_)
        if (hill.standing()) keys.push_back(key(hill.cell, hill.owner));
    emit_distinct('h');
    for (int a : live_) keys.push_back(key(ant_cell_[a], ant_owner_[a]));
    emit_distinct('a');
    for (int c : food_cells_) push_state_object('f', c, -1);  // kept in square order
    for (int a : killed_ants_) keys.push_back(key(ants_[a].cell, ant_owner_[a]));
    emit('d');
    state_dirty_ = false;
}

// Writes "row col" at p (which has room for 16 more bytes) and returns the end.
char* AntsEngine::put_coords(char* p, int c) const {
    const int r = row_of(c);
    const NumberText& row = row_text_[static_cast<std::size_t>(r)];
    const NumberText& col = col_text_[static_cast<std::size_t>(c - r * cols_)];
    std::memcpy(p, row.digits, sizeof row.digits);
    p += row.length;
    *p++ = ' ';
    std::memcpy(p, col.digits, sizeof col.digits);
    return p + col.length;
}

void AntsEngine::push_state_object(char kind, int c, int owner) {
    state_objects_.push_back({c, kind, static_cast<std::int8_t>(owner)});
}

std::string AntsEngine::player_state_text(int player) {
    if (state_dirty_) rebuild_state_objects();
    const auto& water = revealed_water_[player];
    // Upper bound: a line is at most "k 99999 99999 NN\n" (17 bytes); put_coords may write
    // up to 7 bytes beyond the number it puts.
    std::string out((water.size() + state_objects_.size()) * 17 + 16, '\0');
    char* p = out.data();
    for (int c : water) {
        *p++ = 'w';
        *p++ = ' ';
        p = put_coords(p, c);
        *p++ = '\n';
    }
    auto& sw = switch_[player];
    const auto& vision = vision_[player];
    for (const auto& obj : state_objects_) {
        if (!(vision[obj.cell] > 0 || (obj.kind == 'd' && obj.owner == player))) continue;
        *p++ = obj.kind;
        *p++ = ' ';
        p = put_coords(p, obj.cell);
        if (obj.kind != 'f') {
            // an ant can be seen for the first time in the turn it dies: number it now
            if (sw[obj.owner] < 0)
                sw[obj.owner] = static_cast<int>(std::count_if(sw.begin(), sw.end(), [](int v) { return v >= 0; }));
            *p++ = ' ';
            p = std::to_chars(p, p + 3, sw[obj.owner]).ptr;
        }
        *p++ = '\n';
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return out;
}

std::string AntsEngine::stream_start_text() const {
    std::string out = player_start_text();
    for (const auto& [key, value] : {std::pair{"food_rate", params_.food_rate}, std::pair{"food_turn", params_.food_turn},
                                     std::pair{"food_start", params_.food_start}}) {
        out += key;
        out += ' ';
        append_int(out, value);
        out += '\n';
    }
    for (const auto& row : map_rows()) {
        out += "m ";
        out += row;
        out += '\n';
    }
    return out;
}

std::string AntsEngine::full_state_text() {
    if (state_dirty_) rebuild_state_objects();
    std::string out(state_objects_.size() * 17 + 16, '\0');
    char* p = out.data();
    for (const auto& obj : state_objects_) {
        *p++ = obj.kind;
        *p++ = ' ';
        p = put_coords(p, obj.cell);
        if (obj.kind != 'f') {
            *p++ = ' ';
            p = std::to_chars(p, p + 3, static_cast<int>(obj.owner)).ptr;
        }
        *p++ = '\n';
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    return out;
}

std::vector<std::string> AntsEngine::order_for_player(int player, const std::vector<std::string>& data) const {
    const auto& sw = switch_[player];
    std::vector<std::string> out;
    for (int i = 0; i < players_; ++i) {
        auto it = std::find(sw.begin(), sw.end(), i);
        out.push_back(it == sw.end() ? "None" : data[static_cast<std::size_t>(it - sw.begin())]);
    }
    return out;
}

}  // namespace arb::ants

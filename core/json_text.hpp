#pragma once
// Reading JSON that comes from outside (replays, logs, job and result files, records) with
// limits: a file a reader will not take whole is refused before it is parsed, and nesting is
// bounded, so that no file costs more than its size in memory or a deep recursion later
// (dumping a value into an error message recurses once per level).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

namespace arb {

inline constexpr int kMaxJsonDepth = 64;  // real files nest at most 6 levels

// Parses text; UserError "<source>: not valid JSON: ..." or "<source>: JSON nested deeper than
// 64 levels".
nlohmann::json parse_json_text(std::string_view text, const std::string& source);

// Reads a whole file of at most max_bytes; UserError "<path>: cannot read" or
// "<path>: 300000000 bytes, at most 67108864".
std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes);

// `j` as an integer of type T. nlohmann's get<T>() converts a float or a too large integer with
// a plain cast (undefined behaviour for 1e300); this throws json::type_error 302 instead, which
// every reader already reports as bad input.
template <class T>
T json_integer(const nlohmann::json& j) {
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    if (j.is_number_unsigned() && j.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi))
        return static_cast<T>(j.get<std::uint64_t>());
    if (j.is_number_integer() && !j.is_number_unsigned() && std::cmp_greater_equal(j.get<std::int64_t>(), lo) &&
        std::cmp_less_equal(j.get<std::int64_t>(), hi))
        return static_cast<T>(j.get<std::int64_t>());
    throw nlohmann::json::type_error::create(
        302, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not " +
                 (j.is_number() ? j.dump() : std::string(j.type_name())),
        &j);
}

// The same for an optional member: `fallback` when the object has no `key`.
template <class T>
T json_integer(const nlohmann::json& object, const char* key, T fallback) {
    return object.is_object() && object.contains(key) ? json_integer<T>(object.at(key)) : fallback;
}

}  // namespace arb

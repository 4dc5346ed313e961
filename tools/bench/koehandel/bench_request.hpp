#pragma once
// The Koehandel request the channel benchmarks ask: an auction notice as a query. The HTTP seat
// sends it as the target "/" + kQuery (bench_koehandel_http http), the pipe seat as a line
// (stdio), and the raw HTTP client (bench_koehandel_raw_http) as the same target.
#include <string_view>

namespace koehandel_bench {

inline constexpr std::string_view kQuery = "?market=1&id=1&type=auction&goods=F&money=tttt";

}  // namespace koehandel_bench

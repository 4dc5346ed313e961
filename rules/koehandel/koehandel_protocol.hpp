#pragma once
// What a Koehandel bot reads and writes (koehandel.md 2.2; seed 002): each message of the engine
// as the path of an HTTP GET request, and its answer, the body's first non-blank line in query
// form.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/seat.hpp"
#include "rules/koehandel/koehandel_engine.hpp"

namespace arb::koehandel {

// The market every request of a match names, from its seed.
std::uint64_t market_of(std::uint64_t seed);

// The request path of a message to seat `seat`: "/?market=M&id=I&type=...&opponent=...
// &auctioneer=...&goods=...&money=...&message=..." with the empty fields left out; id is the
// seat number + 1.
std::string request_text(const Message& message, std::uint64_t market, int seat);

// Reads a reply body in query form ("?a=1&b=2", the '?' optional, %XX and '+' decoded); the
// first non-blank line counts. Unknown keys are kept; a malformed pair is skipped.
Fields parse_query(std::string_view body);

// The reader for the seat driver: a decision's reply (its first line) as fields. Every ok reply
// reads (one without a pair as no fields); what the fields mean is the engine's to judge.
inline std::optional<Fields> read_fields(const Reply& reply) { return parse_query(reply.first_line()); }

}  // namespace arb::koehandel

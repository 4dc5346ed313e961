// Placeholder translation unit until the rating stage lands.
namespace arb::rating {}

// The two inner loops the BayesElo fit spends its time in (rating.md A.2): one player's MM
// denominator, and one grid point of one player's exact log-likelihood. Each edge's four terms
// are taken as one four-lane vector, or as two two-lane vectors where the processor has no AVX2;
// the lanes are summed in the same order both ways, so both give the same bits.
#include <cstddef>
#include <cstring>

#include "rating/bayeselo_model.hpp"
#include "rating/vector_log.hpp"

namespace arb::rating::bayeselo_model {
namespace {

// The edge's four counts, [i White win/draw, i White loss/draw, j White win/draw, j White loss/draw];
// an Edge holds them as floats (exactly what they are), the likelihood's counts as doubles.
static_assert(offsetof(Edge, j_white_loss_draw) == offsetof(Edge, i_white_win_draw) + 3 * sizeof(float));
static_assert(offsetof(LikelihoodCounts, j_white_loss_draw) ==
              offsetof(LikelihoodCounts, i_white_win_draw) + 3 * sizeof(double));

[[gnu::always_inline]] inline Double4 four_counts(const Edge& e) {
    using Float4 = float __attribute__((vector_size(16)));
    Float4 v;
    std::memcpy(&v, &e.i_white_win_draw, sizeof v);
    return __builtin_convertvector(v, Double4);
}
[[gnu::always_inline]] inline Double4 four_counts(const LikelihoodCounts& e) {
    Double4 v;
    std::memcpy(&v, &e.i_white_win_draw, sizeof v);
    return v;
}
template <typename Counts>
[[gnu::always_inline]] inline Double2 first_two(const Counts& e) {
    return Double2{e.i_white_win_draw, e.i_white_loss_draw};
}
template <typename Counts>
[[gnu::always_inline]] inline Double2 last_two(const Counts& e) {
    return Double2{e.j_white_win_draw, e.j_white_loss_draw};
}

// MM (A.2 step 1): sum over the edges of a1 tw / (tw gp + td go) + a2 td tw / (td tw gp + go)
// + a3 td / (tw go + td gp) + a4 / (td tw go + gp), each term bayeselo's operation for operation,
// each of the four summed in its own lane, the lanes added (0 + 1) + (2 + 3) at the end.
[[gnu::always_inline]] inline double mm_sum_two_lanes(const Edge* edges, std::size_t count, const double* gamma,
                                                      double gp, double tw, double td) {
    const Double2 white = {tw, td * tw}, draw = {td, 1.0}, numerator = {1.0, tw};
    Double2 i_white = {0, 0}, j_white = {0, 0};
    for (std::size_t k = 0; k < count; ++k) {
        const double go = gamma[edges[k].opponent];  // already new when the opponent was swept first
        i_white += first_two(edges[k]) * Double2{tw, td} * numerator / (white * gp + draw * go);
        j_white += last_two(edges[k]) * draw / (white * go + draw * gp);
    }
    return (i_white[0] + i_white[1]) + (j_white[0] + j_white[1]);
}

[[gnu::always_inline]] inline double mm_sum_four_lanes(const Edge* edges, std::size_t count, const double* gamma,
                                                       double gp, double tw, double td) {
    const Double4 of_gp = {tw, td * tw, td, 1.0}, of_go = {td, 1.0, tw, td * tw};
    const Double4 numerator_a = {tw, td, td, 1.0}, numerator_b = {1.0, tw, 1.0, 1.0};
    Double4 sum = {0, 0, 0, 0};
    for (std::size_t k = 0; k < count; ++k) {
        const double go = gamma[edges[k].opponent];
        sum += four_counts(edges[k]) * numerator_a * numerator_b / (of_gp * gp + of_go * go);
    }
    return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

// exactdist (A.2 "Confidence intervals"): sum over the edges of a1 ln(tw rho + td) + a2 ln(td tw
// rho + 1) + a3 ln(tw + td rho) + a4 ln(td tw + rho), rho = e_x / exp(r_opponent).
[[gnu::always_inline]] inline double log_terms_two_lanes(const LikelihoodCounts* counts, const Edge* edges,
                                                         std::size_t count, const double* inverse_exp, double e_x,
                                                         double tw, double td) {
    const Double2 white = {tw, td * tw}, draw = {td, 1.0};
    Double2 i_white = {0, 0}, j_white = {0, 0};
    for (std::size_t k = 0; k < count; ++k) {
        const double rho = e_x * inverse_exp[edges[k].opponent];
        i_white += first_two(counts[k]) * vector_log(white * rho + draw);
        j_white += last_two(counts[k]) * vector_log(draw * rho + white);
    }
    return (i_white[0] + i_white[1]) + (j_white[0] + j_white[1]);
}

[[gnu::always_inline]] inline double log_terms_four_lanes(const LikelihoodCounts* counts, const Edge* edges,
                                                          std::size_t count, const double* inverse_exp, double e_x,
                                                          double tw, double td) {
    const Double4 of_rho = {tw, td * tw, td, 1.0}, constant = {td, 1.0, tw, td * tw};
    Double4 sum = {0, 0, 0, 0};
    for (std::size_t k = 0; k < count; ++k) {
        const double rho = e_x * inverse_exp[edges[k].opponent];
        sum += four_counts(counts[k]) * vector_log(of_rho * rho + constant);
    }
    return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] double mm_sum_avx2(const Edge* edges, std::size_t count, const double* gamma, double gp,
                                           double tw, double td) {
    return mm_sum_four_lanes(edges, count, gamma, gp, tw, td);
}
[[gnu::target("avx2")]] double log_terms_avx2(const LikelihoodCounts* counts, const Edge* edges, std::size_t count,
                                              const double* inverse_exp, double e_x, double tw, double td) {
    return log_terms_four_lanes(counts, edges, count, inverse_exp, e_x, tw, td);
}
bool processor_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#else
bool processor_has_avx2() { return false; }
#endif

bool portable_only = false;

bool use_avx2() { return !portable_only && processor_has_avx2(); }

}  // namespace

void use_portable_kernels(bool portable) { portable_only = portable; }

double mm_denominator(const Condensed& c, int p, const std::vector<double>& gamma, double tw, double td) {
    const Edge* edges = c.edges.data() + c.first_edge[p];
    const std::size_t count = c.first_edge[p + 1] - c.first_edge[p];
#if defined(__x86_64__)
    if (use_avx2()) return mm_sum_avx2(edges, count, gamma.data(), gamma[p], tw, td);
#endif
    return mm_sum_two_lanes(edges, count, gamma.data(), gamma[p], tw, td);
}

double likelihood_log_terms(const Condensed& c, int p, const std::vector<double>& inverse_exp, double e_x, double tw,
                            double td) {
    const std::size_t first = c.first_edge[p], count = c.first_edge[p + 1] - first;
    const LikelihoodCounts* counts = c.likelihood.data() + first;
    const Edge* edges = c.edges.data() + first;
#if defined(__x86_64__)
    if (use_avx2()) return log_terms_avx2(counts, edges, count, inverse_exp.data(), e_x, tw, td);
#endif
    return log_terms_two_lanes(counts, edges, count, inverse_exp.data(), e_x, tw, td);
}

}  // namespace arb::rating::bayeselo_model

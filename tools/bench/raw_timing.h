/* Timing for the raw benchmark programs (plain processes the arbiter's figures are set
 * against): a monotonic clock in microseconds and the median of a sample. */
#pragma once
#include <stdlib.h>
#include <time.h>

static inline double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Sorts `v` in place; the upper median for an even count. */
static inline double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof(double), compare_doubles);
    return n > 0 ? v[n / 2] : 0;
}


void max_float64(const NgKArg *A)
{
    const double *const a0 = (double *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_s0 = A[3].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    double *const a1 = (double *)A[4].p + A[5].i;
    (void)a1;
    const int64_t ng_work = A[6].i; (void)ng_work;
    double v1 = ((double)(-1.0f / 0.0f));
    int ng_par0; {
        const int64_t ng_lo = ((int64_t)0LL);
        const int64_t ng_hi = a0_n0;
        const int64_t ng_step = ((int64_t)1LL);
        const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)
            : ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;
        ng_par0 = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;
    }
    if (ng_par0) {
        #pragma omp parallel for simd schedule(static) if(parallel: ng_par0) reduction(ngmax_f64:v1)
        for (int64_t v0 = ((int64_t)0LL); v0 < a0_n0; v0 += ((int64_t)1LL)) {
            v1 = ng_max_f64(v1, a0[(v0)]);
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a0_n0; v0 += ((int64_t)1LL)) {
            v1 = ng_max_f64(v1, a0[(v0)]);
        }
    }
    a1[0] = v1;
}

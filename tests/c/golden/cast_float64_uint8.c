
void cast_float64_uint8(const NgKArg *A)
{
    const double *const a0 = (double *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_s0 = A[3].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    uint8_t *const a1 = (uint8_t *)A[4].p + A[5].i;
    const int64_t a1_n0 = A[6].i;
    const int64_t a1_s0 = A[7].i;
    (void)a1;
    (void)a1_n0; (void)a1_s0;
    const int64_t ng_work = A[8].i; (void)ng_work;
    int ng_par0; {
        const int64_t ng_lo = ((int64_t)0LL);
        const int64_t ng_hi = a1_n0;
        const int64_t ng_step = ((int64_t)1LL);
        const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)
            : ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;
        ng_par0 = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;
    }
    if (ng_par0) {
        #pragma omp parallel for schedule(static) if(parallel: ng_par0)
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            a1[(v0)] = ng_f2u_u8(a0[(v0)]);
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            a1[(v0)] = ng_f2u_u8(a0[(v0)]);
        }
    }
}

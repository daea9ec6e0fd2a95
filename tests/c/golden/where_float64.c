
void where_float64(const NgKArg *A)
{
    const uint8_t *const a0 = (uint8_t *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_s0 = A[3].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    const double *const a1 = (double *)A[4].p + A[5].i;
    const int64_t a1_n0 = A[6].i;
    const int64_t a1_s0 = A[7].i;
    (void)a1;
    (void)a1_n0; (void)a1_s0;
    const double *const a2 = (double *)A[8].p + A[9].i;
    const int64_t a2_n0 = A[10].i;
    const int64_t a2_s0 = A[11].i;
    (void)a2;
    (void)a2_n0; (void)a2_s0;
    double *const a3 = (double *)A[12].p + A[13].i;
    const int64_t a3_n0 = A[14].i;
    const int64_t a3_s0 = A[15].i;
    (void)a3;
    (void)a3_n0; (void)a3_s0;
    const int64_t ng_work = A[16].i; (void)ng_work;
    int ng_par0; {
        const int64_t ng_lo = ((int64_t)0LL);
        const int64_t ng_hi = a3_n0;
        const int64_t ng_step = ((int64_t)1LL);
        const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)
            : ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;
        ng_par0 = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;
    }
    if (ng_par0) {
        #pragma omp parallel for schedule(static) if(parallel: ng_par0)
        for (int64_t v0 = ((int64_t)0LL); v0 < a3_n0; v0 += ((int64_t)1LL)) {
            a3[(v0)] = (((uint8_t)(a0[(v0)] != 0)) ? (a1[(v0)]) : (a2[(v0)]));
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a3_n0; v0 += ((int64_t)1LL)) {
            a3[(v0)] = (((uint8_t)(a0[(v0)] != 0)) ? (a1[(v0)]) : (a2[(v0)]));
        }
    }
}

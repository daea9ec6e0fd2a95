
void floor_divide_int8_2d(const NgKArg *A)
{
    const int8_t *const a0 = (int8_t *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_n1 = A[3].i;
    const int64_t a0_s0 = A[4].i;
    const int64_t a0_s1 = A[5].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    (void)a0_n1; (void)a0_s1;
    const int8_t *const a1 = (int8_t *)A[6].p + A[7].i;
    const int64_t a1_n0 = A[8].i;
    const int64_t a1_n1 = A[9].i;
    const int64_t a1_s0 = A[10].i;
    const int64_t a1_s1 = A[11].i;
    (void)a1;
    (void)a1_n0; (void)a1_s0;
    (void)a1_n1; (void)a1_s1;
    int8_t *const a2 = (int8_t *)A[12].p + A[13].i;
    const int64_t a2_n0 = A[14].i;
    const int64_t a2_n1 = A[15].i;
    const int64_t a2_s0 = A[16].i;
    const int64_t a2_s1 = A[17].i;
    (void)a2;
    (void)a2_n0; (void)a2_s0;
    (void)a2_n1; (void)a2_s1;
    const int64_t ng_work = A[18].i; (void)ng_work;
    int ng_par0; {
        const int64_t ng_lo = ((int64_t)0LL);
        const int64_t ng_hi = a2_n0;
        const int64_t ng_step = ((int64_t)1LL);
        const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)
            : ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;
        ng_par0 = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;
    }
    if (ng_par0) {
        #pragma omp parallel for schedule(static) if(parallel: ng_par0)
        for (int64_t v0 = ((int64_t)0LL); v0 < a2_n0; v0 += ((int64_t)1LL)) {
            for (int64_t v1 = ((int64_t)0LL); v1 < a2_n1; v1 += ((int64_t)1LL)) {
                a2[(v0)*a2_s0 + (v1)*a2_s1] = ng_fdiv_i8(a0[(v0)*a0_s0 + (v1)*a0_s1], a1[(v0)*a1_s0 + (v1)*a1_s1]);
            }
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a2_n0; v0 += ((int64_t)1LL)) {
            for (int64_t v1 = ((int64_t)0LL); v1 < a2_n1; v1 += ((int64_t)1LL)) {
                a2[(v0)*a2_s0 + (v1)*a2_s1] = ng_fdiv_i8(a0[(v0)*a0_s0 + (v1)*a0_s1], a1[(v0)*a1_s0 + (v1)*a1_s1]);
            }
        }
    }
}


void collatz_int64(const NgKArg *A)
{
    const int64_t *const a0 = (int64_t *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_s0 = A[3].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    int64_t *const a1 = (int64_t *)A[4].p + A[5].i;
    const int64_t a1_n0 = A[6].i;
    const int64_t a1_s0 = A[7].i;
    (void)a1;
    (void)a1_n0; (void)a1_s0;
    const int64_t s2 = (int64_t)A[8].i;
    const int64_t ng_work = A[9].i; (void)ng_work;
    int ng_par0; {
        const int64_t ng_lo = ((int64_t)0LL);
        const int64_t ng_hi = a1_n0;
        const int64_t ng_step = ((int64_t)1LL);
        const uint64_t ng_trips = ng_step > 0 ? (ng_hi > ng_lo ? ((uint64_t)ng_hi - (uint64_t)ng_lo) / (uint64_t)ng_step : 0u)
            : ng_step < 0 && ng_lo > ng_hi ? ((uint64_t)ng_lo - (uint64_t)ng_hi) / ((uint64_t)0 - (uint64_t)ng_step) : 0u;
        ng_par0 = ng_work >= NG_PAR_MIN_WORK || ng_trips >= (uint64_t)NG_PAR_MIN_WORK;
    }
    if (ng_par0) {
        int64_t ng_chunk0; {
            const uint64_t ng_span = (uint64_t)(a1_n0) - (uint64_t)(((int64_t)0LL));
            const int64_t ng_step = ((int64_t)1LL);
            const uint64_t ng_by = ng_step > 0 ? (uint64_t)ng_step : (uint64_t)0 - (uint64_t)ng_step;
            const uint64_t ng_c = ng_by ? (ng_step > 0 ? ng_span : (uint64_t)0 - ng_span) / ng_by / 256u : 1u;
            ng_chunk0 = ng_c < 1u ? 1 : ng_c > 2147483647u ? 2147483647 : (int64_t)ng_c;
        }
        #pragma omp parallel for schedule(dynamic, ng_chunk0) if(parallel: ng_par0)
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            int64_t v1 = a0[(v0)];
            int64_t v2 = ((int64_t)0LL);
            while ((v1 > ((int64_t)1LL))) {
                v2 = ((int64_t)((uint64_t)v2 + (uint64_t)((int64_t)1LL)));
                if ((v2 > s2)) {
                    break;
                }
                if ((((int64_t)(v1 & 1LL)) == ((int64_t)0LL))) {
                    v1 = ((int64_t)(v1 >> 1));
                } else {
                    v1 = ((int64_t)((uint64_t)((int64_t)((uint64_t)((int64_t)3LL) * (uint64_t)v1)) + (uint64_t)((int64_t)1LL)));
                }
            }
            a1[(v0)] = v2;
        }
    } else {
        int64_t ng_chunk0; {
            const uint64_t ng_span = (uint64_t)(a1_n0) - (uint64_t)(((int64_t)0LL));
            const int64_t ng_step = ((int64_t)1LL);
            const uint64_t ng_by = ng_step > 0 ? (uint64_t)ng_step : (uint64_t)0 - (uint64_t)ng_step;
            const uint64_t ng_c = ng_by ? (ng_step > 0 ? ng_span : (uint64_t)0 - ng_span) / ng_by / 256u : 1u;
            ng_chunk0 = ng_c < 1u ? 1 : ng_c > 2147483647u ? 2147483647 : (int64_t)ng_c;
        }
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            int64_t v1 = a0[(v0)];
            int64_t v2 = ((int64_t)0LL);
            while ((v1 > ((int64_t)1LL))) {
                v2 = ((int64_t)((uint64_t)v2 + (uint64_t)((int64_t)1LL)));
                if ((v2 > s2)) {
                    break;
                }
                if ((((int64_t)(v1 & 1LL)) == ((int64_t)0LL))) {
                    v1 = ((int64_t)(v1 >> 1));
                } else {
                    v1 = ((int64_t)((uint64_t)((int64_t)((uint64_t)((int64_t)3LL) * (uint64_t)v1)) + (uint64_t)((int64_t)1LL)));
                }
            }
            a1[(v0)] = v2;
        }
    }
}

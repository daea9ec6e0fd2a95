
void row_bins_int64(const NgKArg *A)
{
    const int64_t *const a0 = (int64_t *)A[0].p + A[1].i;
    const int64_t a0_n0 = A[2].i;
    const int64_t a0_n1 = A[3].i;
    const int64_t a0_s0 = A[4].i;
    const int64_t a0_s1 = A[5].i;
    (void)a0;
    (void)a0_n0; (void)a0_s0;
    (void)a0_n1; (void)a0_s1;
    int64_t *const a1 = (int64_t *)A[6].p + A[7].i;
    const int64_t a1_n0 = A[8].i;
    const int64_t a1_n1 = A[9].i;
    const int64_t a1_s0 = A[10].i;
    const int64_t a1_s1 = A[11].i;
    (void)a1;
    (void)a1_n0; (void)a1_s0;
    (void)a1_n1; (void)a1_s1;
    const int64_t ng_work = A[12].i; (void)ng_work;
    if (ng_work >= NG_PAR_MIN_WORK) {
        #pragma omp parallel for schedule(static) if(parallel: ng_work >= NG_PAR_MIN_WORK)
        for (int64_t v0 = ((int64_t)0LL); v0 < a0_n0; v0 += ((int64_t)1LL)) {
            int64_t v3[5];
            for (int ng_e = 0; ng_e < 5; ng_e++)
                v3[ng_e] = ((int64_t)0LL);
            for (int64_t v1 = ((int64_t)0LL); v1 < a0_n1; v1 += ((int64_t)1LL)) {
                v3[(a0[(v0)*a0_s0 + (v1)] & ((int64_t)3LL))] = ((int64_t)((uint64_t)v3[(a0[(v0)*a0_s0 + (v1)] & ((int64_t)3LL))] + (uint64_t)((int64_t)1LL)));
            }
            for (int64_t v2 = ((int64_t)0LL); v2 < ((int64_t)4LL); v2 += ((int64_t)1LL)) {
                a1[(v0)*a1_s0 + (v2)] = v3[v2];
            }
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a0_n0; v0 += ((int64_t)1LL)) {
            int64_t v3[5];
            for (int ng_e = 0; ng_e < 5; ng_e++)
                v3[ng_e] = ((int64_t)0LL);
            for (int64_t v1 = ((int64_t)0LL); v1 < a0_n1; v1 += ((int64_t)1LL)) {
                v3[(a0[(v0)*a0_s0 + (v1)] & ((int64_t)3LL))] = ((int64_t)((uint64_t)v3[(a0[(v0)*a0_s0 + (v1)] & ((int64_t)3LL))] + (uint64_t)((int64_t)1LL)));
            }
            for (int64_t v2 = ((int64_t)0LL); v2 < ((int64_t)4LL); v2 += ((int64_t)1LL)) {
                a1[(v0)*a1_s0 + (v2)] = v3[v2];
            }
        }
    }
}

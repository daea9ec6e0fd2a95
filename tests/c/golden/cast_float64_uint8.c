
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
    if (ng_work >= NG_PAR_MIN_WORK) {
        #pragma omp parallel for schedule(static) if(parallel: ng_work >= NG_PAR_MIN_WORK)
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            a1[(v0)] = ng_f2u_u8(a0[(v0)]);
        }
    } else {
        for (int64_t v0 = ((int64_t)0LL); v0 < a1_n0; v0 += ((int64_t)1LL)) {
            a1[(v0)] = ng_f2u_u8(a0[(v0)]);
        }
    }
}

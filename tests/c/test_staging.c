/* The arithmetic of staged host<->device copies (src/backend/staging.h),
 * which the CUDA backend uses for large transfers: the pieces tile the copy
 * exactly, in order, none longer than a chunk, none empty, and a copy of
 * any size is rebuilt byte for byte when moved piece by piece through
 * NG_STAGE_BUFS buffers used in turn (the data path of cuda_upload /
 * cuda_download, simulated with memcpy). Runs without a GPU. */
#include <stdint.h>
#include <string.h>

#include "backend/staging.h"
#include "check.h"

/* The pieces of an nbytes copy cover [0, nbytes) once, in order. */
static void check_tiling(size_t nbytes, size_t chunk)
{
    size_t n = ng_stage_pieces(nbytes, chunk), next = 0;
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        size_t off, len = ng_stage_piece(nbytes, chunk, i, &off);
        ok = ok && off == next && len > 0 && len <= chunk;
        next = off + len;
    }
    CHECK(ok);
    CHECK(next == nbytes);
    size_t off;
    CHECK(ng_stage_piece(nbytes, chunk, n, &off) == 0); /* past the end: nothing */
}

/* Moves src to dst through NG_STAGE_BUFS buffers of `chunk` bytes. */
static void staged_copy(unsigned char *dst, const unsigned char *src, size_t nbytes, size_t chunk,
                        unsigned char *bufs)
{
    for (size_t i = 0; i < ng_stage_pieces(nbytes, chunk); i++) {
        size_t off, len = ng_stage_piece(nbytes, chunk, i, &off);
        unsigned char *b = bufs + (i % NG_STAGE_BUFS) * chunk;
        memcpy(b, src + off, len);
        memcpy(dst + off, b, len);
    }
}

int main(void)
{
    CHECK(ng_stage_pieces(0, 4) == 0);
    CHECK(ng_stage_pieces(1, 4) == 1);
    CHECK(ng_stage_pieces(4, 4) == 1);
    CHECK(ng_stage_pieces(5, 4) == 2);
    CHECK(ng_stage_pieces(12, 4) == 3);
    CHECK(ng_stage_pieces(NG_STAGE_MIN, NG_STAGE_CHUNK) == NG_STAGE_MIN / NG_STAGE_CHUNK);
    size_t off;
    CHECK(ng_stage_piece(10, 4, 2, &off) == 2);
    CHECK(off == 8);
    CHECK(ng_stage_piece(10, 4, 1, &off) == 4);
    CHECK(off == 4);
    static const size_t sizes[] = {0, 1, 3, 4, 5, 63, 64, 65, 1000, 4096, 4097};
    static const size_t chunks[] = {1, 4, 7, 64, 4096};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
            check_tiling(sizes[s], chunks[c]);
    check_tiling(NG_STAGE_MIN + 12345, NG_STAGE_CHUNK);
    check_tiling((size_t)3 << 30, NG_STAGE_CHUNK);

    enum { N = 10007, CHUNK = 256 };
    static unsigned char src[N], dst[N], bufs[NG_STAGE_BUFS * CHUNK];
    for (int i = 0; i < N; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    staged_copy(dst, src, N, CHUNK, bufs);
    CHECK(memcmp(dst, src, N) == 0);
    return check_summary();
}

/* Pieces of a staged host<->device copy (CUDA backend; kept apart so a C
 * test can check the arithmetic without a GPU).
 *
 * A copy of at least NG_STAGE_MIN bytes goes through NG_STAGE_BUFS pinned
 * host buffers of NG_STAGE_CHUNK bytes, used in turn: piece i covers bytes
 * [i * chunk, min((i + 1) * chunk, nbytes)) and travels through buffer
 * i % NG_STAGE_BUFS, so the host's memcpy into (or out of) one buffer
 * overlaps the DMA of the other. Smaller copies go directly. */
#ifndef NUMGPU_STAGING_H
#define NUMGPU_STAGING_H

#include <stddef.h>

#define NG_STAGE_CHUNK ((size_t)4 << 20) /* bytes per piece */
#define NG_STAGE_BUFS 2                  /* pinned buffers, used in turn */
#define NG_STAGE_MIN ((size_t)8 << 20)   /* copies this large are staged */

/* Number of pieces of an nbytes copy in chunks of `chunk` bytes. */
static inline size_t ng_stage_pieces(size_t nbytes, size_t chunk)
{
    return chunk ? nbytes / chunk + (nbytes % chunk != 0) : 0;
}

/* Piece i of an nbytes copy: its byte offset in *off, its length returned. */
static inline size_t ng_stage_piece(size_t nbytes, size_t chunk, size_t i, size_t *off)
{
    *off = i * chunk;
    return *off >= nbytes ? 0 : nbytes - *off < chunk ? nbytes - *off : chunk;
}

#endif

/* IR -> source text. One walk of the IR; a per-target table says how the
 * target spells types, qualifiers, the kernel head, math functions and the
 * parallel loop. Targets are data: adding one is adding a table. */
#ifndef NUMGPU_EMIT_H
#define NUMGPU_EMIT_H

#include "core/core.h"
#include "ir/ir.h"

typedef enum NgParallelStyle {
    NG_PAR_OPENMP,      /* C: `#pragma omp parallel for` on the outermost parallel loop */
    NG_PAR_GRID_STRIDE, /* CUDA: grid-stride loop over the outermost parallel loop */
    NG_PAR_GLOBAL_ID,   /* OpenCL: get_global_id(0) strides the outermost parallel loop */
} NgParallelStyle;

typedef struct NgTarget {
    const char *name;                    /* "c", "cuda", "opencl" */
    const char *type_names[NG_NTYPES];   /* element types; NULL: unsupported */
    const char *prologue;                /* helper definitions, once per source */
    const char *half_prologue;           /* after it when the kernel uses float16 */
    const char *complex_prologue;        /* after those when the kernel uses a complex dtype */
    const char *lanes_prologue;          /* C: vector values, when a kernel may run a while loop in lanes */
    const char *global_ptr;              /* qualifier of array pointers: "" or "__global " */
    const char *kernel_head;             /* text before the kernel's name */
    const char *table_head;              /* qualifiers of a constant table (NgIrTable) */
    bool float_suffix;                   /* float32 math is sinf() rather than overloaded sin() */
    bool packed_args;                    /* one `const NgKArg *A` parameter instead of one per argument */
    NgParallelStyle par;                 /* how the outermost parallel loop is spread */
    const char *int64_suffix;            /* suffix of 64-bit integer literals: "LL" or "L" */
    bool invariant_divisors;             /* integer //, % and fmod by a scalar parameter use its
                                            ng_divprep, written once before the loops (C) */
} NgTarget;

extern const NgTarget ng_target_c;      /* cpu backend: C + OpenMP */
extern const NgTarget ng_target_cuda;   /* NVRTC */
extern const NgTarget ng_target_opencl; /* OpenCL C 1.2 */

/* How each 8-byte argument slot is declared by a target that takes one
 * parameter per argument (packed targets read every slot as NgKArg). */
typedef enum NgArgKind {
    NG_ARG_PTR,  /* device pointer (cl_mem on OpenCL) */
    NG_ARG_I64,  /* int64 */
    NG_ARG_F64,  /* double */
    NG_ARG_F32,  /* float: the backend narrows the slot's double */
} NgArgKind;

/* Appends the source of kernel k for target t to out. The kernel's arguments,
 * in order, are for each parameter: an array gives data pointer, element
 * offset, then its shape and its strides (in elements), one argument each;
 * a scalar gives its value (ints as int64, floats as double). */
NgStatus ng_emit(const NgIrKernel *k, const NgTarget *t, NgStr *out);
/* Number of 8-byte arguments the kernel takes (see ng_emit). */
int ng_emit_nargs(const NgIrKernel *k);
/* Fills kinds[0..ng_emit_nargs(k)) with the argument kinds. */
void ng_emit_arg_kinds(const NgIrKernel *k, uint8_t *kinds);
/* True if the kernel has a parallel loop (else GPUs launch one thread). */
bool ng_emit_has_parallel(const NgIrKernel *k);
/* Whether kernel k, for GPU target t, runs as one block of threads (ng_kernel_launch_blocks,
 * 1 block) that spread each NG_IR_ROWS loop over them, a barrier after each, thread 0 storing
 * outside the rows: it has such loops, no other parallel one, and the code around them reads
 * nothing a row assigns (the same in every thread); else its rows run in order. */
bool ng_emit_rows_blocks(const NgIrKernel *k, const NgTarget *t);

#endif

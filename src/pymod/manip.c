/* numgpu._core: Gathering, scattering and rearranging: take, put, nonzero, repeat, tile,
 * roll, flip, pad, tril/triu, trace, outer, einsum. */
#include "pymod.h"

PyMethodDef ngpy_manip_functions[] = {
    {NULL},
};

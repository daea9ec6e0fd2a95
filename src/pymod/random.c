/* numgpu._core: The device random generator (Philox counter-based). */
#include "pymod.h"

PyMethodDef ngpy_random_functions[] = {
    {NULL},
};

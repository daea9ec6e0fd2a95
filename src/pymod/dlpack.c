/* numgpu._core: DLPack: __dlpack__/__dlpack_device__ export and from_dlpack import. */
#include "pymod.h"

PyMethodDef ngpy_dlpack_functions[] = {
    {NULL},
};

/* numgpu._core: Sorting, searching, scans and histograms: sort, argsort, unique, cumsum,
 * searchsorted, bincount, histogram, percentile. */
#include "pymod.h"

PyMethodDef ngpy_sort_functions[] = {
    {NULL},
};

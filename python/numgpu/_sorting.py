"""Sorting, searching, scans, histograms and nan-reductions (C kernels in src/ops/sort.c, scan.c)."""
__all__ = []

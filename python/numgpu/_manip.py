"""Gathering, scattering and rearranging: take, put, nonzero, repeat, tile, roll, flip, pad, tril, triu, trace, outer, einsum (src/ops/manip.c)."""
__all__ = []

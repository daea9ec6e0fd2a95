"""numgpu.random: NumPy's random streams (identical numbers for a seed) and the device Philox generator."""
__all__ = []

"""numgpu.linalg: NumPy's linalg on device arrays."""
__all__ = []

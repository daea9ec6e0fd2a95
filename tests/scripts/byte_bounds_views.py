"""Where a view lies in its base's memory, from byte_bounds (from-python-to-numpy's find_index):
under numgpu run the addresses were a downloaded copy's, any number."""
import numpy as np

byte_bounds = np.lib.array_utils.byte_bounds

Z = np.arange(60, dtype=np.float32).reshape(6, 10)
for V in (Z[::2, ::3], Z[1:, 2:], Z[3], Z[:, 4], Z.T, Z[::-1]):
    low = byte_bounds(V)[0] - byte_bounds(Z)[0]
    high = byte_bounds(V)[1] - byte_bounds(Z)[0]
    print(low, high, low // Z.itemsize, np.lib.array_utils.normalize_axis_index(-1, V.ndim))

"""NumPy fallback for what numgpu does not implement (issue 5)."""


def module_getattr(name):
    raise AttributeError("module 'numgpu' has no attribute %r" % name)

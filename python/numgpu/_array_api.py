"""The Array API standard namespace: __array_namespace__, __array_namespace_info__, finfo, iinfo, isdtype, ..."""
__all__ = []

"""The `numgpu` command line: doctor, bench, demo, run (numgpu/_run.py).

Each command is one module with `add_arguments(parser)` and `run(args) -> exit status`;
`numgpu/__main__.py` wires them into one argparse parser. They are diagnostics and
demonstrations over the public API: no kernels or array work of their own.
"""

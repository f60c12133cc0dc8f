"""The things ``soloscope generate WHAT`` makes, one module each.

A module here is a ``generate`` sub-command when it defines ``NAME`` (the WHAT on the command
line), ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``, like the top-level
commands: adding ``generate grid`` or ``generate scenario`` is adding a file here.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def generator_modules() -> list[ModuleType]:
    """Every ``generate`` sub-command module of this package, by module name."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if all(hasattr(module, a) for a in ("NAME", "HELP", "add_arguments", "run")):
            found.append(module)
    return found

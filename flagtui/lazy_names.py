"""A package whose names are imported when first asked for (`from flagtui.api import
AdminClient` works as ever), so that a module needing one light part of it does not load the
rest (issue 26): the package's module `__getattr__`, made here once."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping


def lazy_names(
    package: str, names: Collection[str], module_of: Mapping[str, str], default: str
) -> Callable[[str], object]:
    """`package`'s `__getattr__`: each of `names` from its module (`module_of`, else
    `default`), kept in the package once asked for."""

    def __getattr__(name: str) -> object:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module_of.get(name, default)}"), name)
        setattr(importlib.import_module(package), name, value)  # asked once
        return value

    return __getattr__

"""The config's `[keymap]`: binding ids mapped to other keys, checked against the bindings that
exist (every `Binding` in flagtui's TUI has an `id`) and applied with Textual's
`App.set_keymap`. Also what the key-consistency test walks: every class's BINDINGS."""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path

from textual.binding import Binding
from textual.dom import DOMNode

import flagtui.tui
from flagtui.config import ConfigError


def binding_classes() -> Iterator[type[DOMNode]]:
    """Every class of flagtui's TUI that declares BINDINGS (screens, modals, widgets, the app).
    Imports every module of the TUI: called only when a keymap is given, or by tests."""
    for module_info in pkgutil.walk_packages(flagtui.tui.__path__, "flagtui.tui."):
        module = importlib.import_module(module_info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            own = cls.__module__ == module.__name__ and "BINDINGS" in cls.__dict__
            if own and issubclass(cls, DOMNode):
                yield cls


def own_bindings(cls: type[DOMNode]) -> list[Binding]:
    return [b for b in cls.__dict__["BINDINGS"] if isinstance(b, Binding)]


def binding_ids() -> set[str]:
    """The ids a keymap may name: flagtui's bindings and those they inherit from Textual."""
    ids = set()
    for cls in binding_classes():
        for base in cls.__mro__:
            for binding in base.__dict__.get("BINDINGS", []):
                if isinstance(binding, Binding) and binding.id:
                    ids.add(binding.id)
    return ids


def check_keymap(keymap: Mapping[str, str], path: Path) -> None:
    """A ConfigError naming the first id that is no binding's (and the nearest one that is)."""
    if not keymap:
        return
    known = binding_ids()
    for binding_id in keymap:
        if binding_id in known:
            continue
        near = difflib.get_close_matches(binding_id, sorted(known), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ConfigError(
            f"{path}: [keymap] unknown binding id {binding_id!r}{hint} "
            "(the README lists every binding id)"
        )

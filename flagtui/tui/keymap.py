"""The config's `[keymap]`: binding ids mapped to other keys, checked before the app starts and
applied with Textual's `App.set_keymap`. Also what the key-consistency test walks: every
class's BINDINGS.

Textual accepts any keymap silently: an id that is no binding's, or a key name no terminal
sends, leaves the action where it was or nowhere; a key given to two bindings that are active
together goes to one of them, and the other (Quit, say, when `q` is given to a screen's
action) can no longer be pressed. `check_keymap` refuses each of these, naming them all."""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS, Keys, key_to_character

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


SHOWN_AT_MOST = 3
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
NAMED_KEYS = frozenset(
    {k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<")}
    | set(KEY_NAME_REPLACEMENTS.values())
)


def character_key(character: str) -> str:
    """Textual's name for the key that types `character` ("?" is "question_mark"), as its
    bindings name it (Textual's own conversion is private)."""
    if character.isalnum():
        key = character
    else:
        try:
            key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
        except ValueError:
            key = ASCII_KEY_NAMES.get(character, character)
    return KEY_NAME_REPLACEMENTS.get(key, key)


def key_list(keys: str) -> list[str]:
    """A binding's comma-separated keys, each as Textual names it."""
    names = [key.strip() for key in keys.split(",")]
    return [character_key(key) if len(key) == 1 else key for key in names]


def key_name_problem(key: str) -> str | None:
    """Why Textual would never deliver a key of this name, or None."""
    *modifiers, base = key.split("+")
    if not base or any(m not in MODIFIERS for m in modifiers):
        return f"{key!r} is no key name"
    if len(base) == 1:
        # Textual names a lone character itself ("?" is "question_mark"), not one after "ctrl+".
        name = character_key(base)
        if not modifiers or name == base:
            return None
        return f"{key!r} is no key name; did you mean {'+'.join([*modifiers, name])!r}?"
    character = key_to_character(base)
    if base in NAMED_KEYS or (character is not None and character_key(character) == base):
        return None
    near = difflib.get_close_matches(base.lower(), sorted(NAMED_KEYS), n=1)
    return f"{key!r} is no key name" + (f"; did you mean {near[0]!r}?" if near else "")


def _name(binding: Binding) -> str:
    """How an error names a binding: its id, or Textual's own binding by its action."""
    label = binding.description or binding.action
    return f"{binding.id!r} ({label})" if binding.id else f"Textual's {label!r}"


def _active_together(classes: list[type[DOMNode]]) -> Iterator[tuple[str, list[Binding]]]:
    """Each class's bindings (inherited ones included) with the app's, active everywhere."""
    app_bindings = [b for c in classes if issubclass(c, App) for b in _inherited(c)]
    for cls in classes:
        own = _inherited(cls)
        yield cls.__name__, own if issubclass(cls, App) else [*own, *app_bindings]


def _inherited(cls: type[DOMNode]) -> list[Binding]:
    return [
        b
        for base in cls.__mro__
        for b in base.__dict__.get("BINDINGS", [])
        if isinstance(b, Binding)
    ]


def _keys(binding: Binding, keymap: Mapping[str, str]) -> set[str]:
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return set(key_list(keys))


def _clashes(keymap: Mapping[str, str]) -> list[str]:
    """Keys the keymap gives to two bindings active together (that were not shared before)."""
    found: dict[tuple[str, str], str] = {}
    for where, bindings in _active_together(list(binding_classes())):
        holders: dict[str, dict[str, Binding]] = {}
        for binding in bindings:
            for key in _keys(binding, keymap):
                holders.setdefault(key, {})[binding.id or binding.action] = binding
        for key, by_name in holders.items():
            shared_before = all(key in _keys(b, {}) for b in by_name.values())
            if len(by_name) < 2 or shared_before:
                continue
            names = " and ".join(sorted(_name(b) for b in by_name.values()))
            found.setdefault((key, names), f"key {key!r} would serve both {names} in {where}")
    return list(found.values())


def check_keymap(keymap: Mapping[str, str], path: Path) -> None:
    """A ConfigError naming every id that is no binding's (with the nearest one that is),
    every key name Textual never sends, and every key two bindings would then share."""
    if not keymap:
        return
    known = binding_ids()
    problems = []
    for binding_id, keys in keymap.items():
        if binding_id not in known:
            near = difflib.get_close_matches(binding_id, sorted(known), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            problems.append(f"unknown binding id {binding_id!r}{hint}")
            continue
        for key in keys.split(","):
            problem = key_name_problem(key.strip())
            if problem is not None:
                problems.append(f"{binding_id!r}: {problem}")
    if not problems:
        problems = _clashes(keymap)
    if len(problems) > SHOWN_AT_MOST:  # one key moved onto every screen's reload, say
        more = len(problems) - SHOWN_AT_MOST
        problems = [*problems[:SHOWN_AT_MOST], f"and {more} more like these"]
    if problems:
        raise ConfigError(
            f"{path}: [keymap] {'; '.join(problems)} (the README lists every binding id and key)"
        )

"""Consistent keys: one word per action and one meaning per key on every screen, Escape leaves
every text field, and the config's [keymap] rebinds keys by binding id."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import pytest
from textual.widgets import Input

from flagtui.config import load_config
from flagtui.tui import key_reference
from flagtui.tui.keymap import binding_classes, check_keymap, own_bindings
from flagtui.tui.launch import run_tui
from flagtui.tui.screens.feature_types import FeatureTypesScreen
from testkit.pilot import settle

from .helpers import visible_text

# Words that mean the same thing to a person, each from the screen it fits: a key may carry
# any one of a group (Escape leaves a detail "Back", a form "Cancel", a dialog "Close").
SAME_MEANING = [
    {"Back", "Cancel", "Close", "Clear filter", "Leave field"},
    {"Delete", "Remove"},  # a change request is deleted, an environment removed from a project
    {"Search", "Search flag"},  # the event log's `s` names what it searches: a flag's events
    {"Create flag", "Create field", "Create segment", "Create token", "Create user"},
]
# Help closes with the keys that open it or leave the app (`?`, `q`): a toggle, not a meaning.
TOGGLES_ITSELF = {"HelpScreen"}
ROOT = Path(__file__).parents[2]
KEYS_DOC = ROOT / "docs" / "keys.md"


def meaning(description: str) -> str:
    for group in SAME_MEANING:
        if description in group:
            return min(group)
    return description


def every_binding() -> list[tuple[str, str, str, str]]:
    """(class, key, action, description) of every binding of flagtui's TUI."""
    found = []
    for cls in binding_classes():
        for binding in own_bindings(cls):
            for key in binding.key.split(","):
                found.append((cls.__name__, key.strip(), binding.action, binding.description))
    return found


def test_every_action_has_one_word_and_every_key_one_meaning() -> None:
    words: dict[str, set[str]] = defaultdict(set)
    meanings: dict[str, set[str]] = defaultdict(set)
    for cls, key, action, description in every_binding():
        words[action].add(f"{description} ({cls})")
        if cls not in TOGGLES_ITSELF:
            meanings[key].add(f"{meaning(description)} ({cls})")

    def distinct(said: set[str]) -> set[str]:
        return {s.rsplit(" (", 1)[0] for s in said}

    assert {a: sorted(s) for a, s in words.items() if len(distinct(s)) > 1} == {}
    assert {k: sorted(s) for k, s in meanings.items() if len(distinct(s)) > 1} == {}


def test_every_binding_has_an_id_and_the_key_reference_lists_them() -> None:
    classes = list(binding_classes())
    assert all(b.id for cls in classes for b in own_bindings(cls))
    reference = KEYS_DOC.read_text(encoding="utf-8")
    assert reference == key_reference.render(), (
        "docs/keys.md is out of date: python -m flagtui.tui.key_reference > docs/keys.md"
    )
    own = {b.id for cls in classes for b in own_bindings(cls)}
    assert sorted(i for i in own if f"`{i}`" not in reference) == []


@pytest.mark.parametrize(
    ("area", "field"),
    [
        ("features", "#search"),
        ("users", "#user-search"),
        ("events", "#query"),
        ("access", "#user-search"),
    ],
)
async def test_escape_leaves_the_text_field_and_keeps_its_text(make_app, area, field) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.switch_area(area)
        await settle(app, pilot)
        box = app.screen.query_one(field, Input)
        box.focus()
        await pilot.press("x", "y")
        await settle(app, pilot)
        await pilot.press("escape", "2")  # then an area key: a key again, not a letter
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        app.switch_area(area)
        await settle(app, pilot)
        assert app.screen.query_one(field, Input).value.endswith("xy")


async def test_a_keymap_moves_a_binding_to_another_key(make_app, tmp_path, monkeypatch) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('[keymap]\n"types.reload" = "f5"\n"app.profile" = "ctrl+o"\n')
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    keymap = load_config().keymap
    check_keymap(keymap, config_file)
    app = make_app()
    app.set_keymap(keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.switch_area("feature-types")
        await settle(app, pilot)
        bar = visible_text(app, "KeyBar")
        assert "f5 Reload" in bar and "r Reload" not in bar
        await pilot.press("ctrl+o")
        await settle(app, pilot)
        assert "Switch to profile" in visible_text(app, "#profile-picker")


def test_an_unknown_binding_id_is_named_and_nothing_starts(tmp_path, monkeypatch, capsys) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text(
        '[keymap]\n"features.relaod" = "f5"\n\n[profiles.a]\nurl = "http://127.0.0.1:9"\n'
    )
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    assert run_tui(argparse.Namespace(profile="a")) == 2
    said = capsys.readouterr().err
    assert f"flagtui: {config_file}: [keymap] unknown binding id 'features.relaod'" in said
    assert "did you mean 'features.reload'?" in said


@pytest.mark.parametrize("keys", ['""', '"r, f5"', "5", '"a\\u0007"'])
def test_bad_keys_in_the_keymap_are_explained(tmp_path, monkeypatch, keys) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text(f'[keymap]\n"features.reload" = {keys}\n')
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    with pytest.raises(Exception, match=r"\[keymap\] 'features.reload' must be a key"):
        load_config()


def test_the_documented_keymap_examples_are_valid(tmp_path, monkeypatch) -> None:
    """config.example.toml's [keymap] (commented out) and docs/keys.md's: real ids, valid keys."""
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8").splitlines()
    start = example.index("# [keymap]")
    entries = [line.removeprefix("# ") for line in example[start + 1 :] if line.startswith('# "')]
    reference = KEYS_DOC.read_text(encoding="utf-8")
    documented = reference.split("```toml\n[keymap]\n", 1)[1].split("```", 1)[0]
    for text in ("\n".join(entries), documented):
        config_file = tmp_path / "config.toml"
        config_file.write_text(f"[keymap]\n{text}\n", encoding="utf-8")
        monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
        keymap = load_config().keymap
        assert keymap
        check_keymap(keymap, config_file)

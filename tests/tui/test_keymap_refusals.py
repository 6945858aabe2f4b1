"""A `[keymap]` that would leave an action unreachable is refused at start (exit 2), saying
which ids, key names or shared keys are the trouble; one that only moves keys starts, and
Quit stays on the key bar."""

from __future__ import annotations

import argparse
import re

import pytest

from flagtui.config import ConfigError, load_config
from flagtui.tui.keymap import check_keymap
from flagtui.tui.launch import run_tui
from testkit.pilot import settle

from .helpers import visible_text

PROFILE = '\n[profiles.a]\nurl = "http://127.0.0.1:9"\n'


def start_with(keymap: str, tmp_path, monkeypatch, capsys) -> tuple[int, str]:
    config_file = tmp_path / "config.toml"
    config_file.write_text(f"[keymap]\n{keymap}\n{PROFILE}")
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    code = run_tui(argparse.Namespace(profile="a"))
    return code, capsys.readouterr().err


def test_a_key_taken_from_quit_is_refused_naming_both(tmp_path, monkeypatch, capsys) -> None:
    code, said = start_with('"features.reload" = "q"', tmp_path, monkeypatch, capsys)
    assert code == 2
    assert (
        "[keymap] key 'q' would serve both 'app.quit' (Quit) and 'features.reload' (Reload)"
        " in FeaturesScreen" in said
    )


def test_quit_moved_onto_a_screens_key_is_refused(tmp_path, monkeypatch, capsys) -> None:
    code, said = start_with('"app.quit" = "t"', tmp_path, monkeypatch, capsys)
    assert code == 2
    for where in ("'detail.toggle' (Toggle) in FeatureDetailScreen", "'features.toggle' (Toggle)"):
        assert f"key 't' would serve both 'app.quit' (Quit) and {where}" in said


def test_a_key_every_screen_uses_is_refused_in_a_few_words(tmp_path, monkeypatch, capsys) -> None:
    code, said = start_with('"app.profile" = "r"', tmp_path, monkeypatch, capsys)
    assert code == 2
    assert said.count("would serve both") == 3
    more = re.search(r"and (\d+) more like these", said)  # every screen's reload: many more
    assert more is not None and int(more[1]) >= 5, said


@pytest.mark.parametrize(
    ("keymap", "named"),
    [
        (
            '"features.reload" = "f55"',
            "'features.reload': 'f55' is no key name; did you mean 'f5'?",
        ),
        ('"features.reload" = "F5"', "'features.reload': 'F5' is no key name; did you mean 'f5'?"),
        (
            '"app.help" = "ctrl+?"',
            "'app.help': 'ctrl+?' is no key name; did you mean 'ctrl+question_mark'?",
        ),
        ('"app.quit" = "cmd+q"', "'app.quit': 'cmd+q' is no key name"),
    ],
)
def test_a_key_name_textual_never_sends_is_refused(
    tmp_path, monkeypatch, capsys, keymap, named
) -> None:
    code, said = start_with(keymap, tmp_path, monkeypatch, capsys)
    assert code == 2
    assert named in said


def test_every_unknown_binding_id_is_named(tmp_path, monkeypatch, capsys) -> None:
    keymap = '"features.relaod" = "f5"\n"app.quitt" = "ctrl+x"'
    code, said = start_with(keymap, tmp_path, monkeypatch, capsys)
    assert code == 2
    assert "unknown binding id 'features.relaod'; did you mean 'features.reload'?" in said
    assert "unknown binding id 'app.quitt'; did you mean 'app.quit'?" in said


async def test_swapping_two_keys_of_a_screen_starts_and_keeps_quit(
    make_app, tmp_path, monkeypatch
) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('[keymap]\n"features.reload" = "t"\n"features.toggle" = "r"\n')
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    keymap = load_config().keymap
    check_keymap(keymap, config_file)
    app = make_app()
    app.set_keymap(keymap)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(app, pilot)
        bar = visible_text(app, "KeyBar")
        assert "t Reload" in bar and "q Quit" in bar


def test_a_character_for_its_name_is_the_same_key(tmp_path) -> None:
    """Textual reads "?" as "question_mark": accepted, and it clashes as that key would."""
    check_keymap({"events.size": "!"}, tmp_path / "config.toml")
    with pytest.raises(ConfigError, match=r"key 'question_mark' would serve both 'app\.help'"):
        check_keymap({"features.reload": "?"}, tmp_path / "config.toml")

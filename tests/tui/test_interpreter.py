"""The interpreter's settings for the TUI (flagtui/tui/interpreter.py): a 1 ms switch
interval, so that a frame reaches the terminal at once; and the objects that exist once the
profile is open frozen, so that the cycle collector's full passes skip them."""

from __future__ import annotations

import argparse
import gc
import sys

from flagtui.tui.interpreter import SWITCH_INTERVAL_S
from flagtui.tui.launch import run_tui
from testkit.pilot import settle


def test_a_start_sets_the_switch_interval(tmp_path, monkeypatch) -> None:
    config_file = tmp_path / "config.toml"  # a start that fails once it has decided
    config_file.write_text('[keymap]\n"features.relaod" = "f5"\n\n[profiles.a]\nurl = "http://x"\n')
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config_file))
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        assert run_tui(argparse.Namespace(profile="a")) == 2
        assert sys.getswitchinterval() == SWITCH_INTERVAL_S
    finally:
        sys.setswitchinterval(before)


async def test_the_opening_freezes_what_exists_once_per_process(make_app) -> None:
    gc.unfreeze()  # as in a fresh process: an earlier test's app may have frozen
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # Textual, httpx, pydantic and flagtui's modules at least
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(again, pilot)
        assert gc.get_freeze_count() <= frozen  # frozen objects still die by reference count

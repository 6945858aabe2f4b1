"""Every form of flagtui, in a real terminal, on the sandbox's hostile project (issue 44, item
1): the server's text in their inputs and selects reaches the terminal inert (no OSC 52, no
OSC 0/2, no `ESC [ 2 J`, no C1 control), and a form left untouched sends nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from hostile_pty import Walk, open_flagtui

TABLES = ("features", "feature_environments", "strategies", "feature_types")


def read_store(db_path: Path) -> list[list[tuple[object, ...]]]:
    """The hostile project's flags, their settings and strategies, and the feature types."""
    with sqlite3.connect(db_path) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in TABLES]


# The strategy form on one screen, its variant rows included, each input wide enough to draw
# all of a hostile title (at 80 columns, an input shows a part that may hold no sequence).
FORM_COLS, FORM_ROWS = 240, 60


def test_every_form_on_hostile_data_in_a_real_terminal(sandbox: Any, tmp_path: Path) -> None:
    with open_flagtui(
        sandbox.url,
        sandbox.admin_token,
        tmp_path,
        area="features",
        project="hostile",
        cols=FORM_COLS,
        rows=FORM_ROWS,
    ) as term:
        stored = read_store(sandbox.db_path)
        walk = Walk(term)
        walk.step("features of the hostile project", [], "hx-escapes", "n/p Page")
        walk.step("hx-escapes's detail", ["j", "enter"], "hx-desc-escapes", "y Copy")
        walk.step("the environment picker", ["S"], "Edit a strategy of hx-escapes in which")
        walk.step("the strategy form", ["enter"], "Edit strategy hx-hx-escapes-development")
        walk.step("its variant rows", [], "hx-var", "hx-payload ␛]0;")
        walk.step("strategy form closed", ["escape"], "y Copy", gone="Review & send")
        walk.step("the variants' environment", ["V"], "in which environment?")
        walk.step("the variants form", ["enter"], "Variants of hx-escapes in development")
        walk.step("its payload, to its end", ["tab"] * 3, "<U+202C>")
        walk.step("variants form closed", ["escape"], "y Copy", gone="Variants of")
        walk.step("the patch form", ["e"], "Patch hx-escapes", "Review & send")
        walk.step("patch form closed", ["escape"], "y Copy", gone="Review & send")
        walk.step("back to the features", ["escape"], "n/p Page", gone="y Copy")
        walk.step("the create form", ["C"], "New flag in project hostile")
        walk.step("its types, the server's", ["tab", "enter"], "hx-type-name")
        walk.step("its types closed", ["escape"], "New flag in", gone="hx-type-name")
        walk.step("create form closed", ["escape"], "n/p Page", gone="New flag in")
        walk.step("feature types", ["2"], "hx-type", "e Edit")
        walk.step("the lifetime dialog", ["G", "enter"], "Lifetime of hx-type-name")
        walk.step("lifetime dialog closed", ["escape"], "e Edit", gone="Lifetime of")
        term.send("q")
        assert term.wait_exit(10) == 0
        term.settle(quiet=0.2, limit=3)
        walk.check("after quitting", running=False)
    for before, after in zip(stored, read_store(sandbox.db_path), strict=True):
        assert after == before, "a form left untouched wrote to the server"

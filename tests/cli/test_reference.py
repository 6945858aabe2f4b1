"""docs/commands.md is what `python -m flagtui.cli.reference` writes from today's parsers and exit
codes; and those exit codes are every one exits.py defines."""

from __future__ import annotations

from pathlib import Path

from flagtui.cli import exits
from flagtui.cli.reference import exit_codes, render

REFERENCE = Path(__file__).parents[2] / "docs" / "commands.md"


def test_the_command_reference_is_up_to_date():
    written = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
    assert written == render(), (
        "docs/commands.md is out of date: run"
        " `.venv/bin/python -m flagtui.cli.reference docs/commands.md` and commit it"
    )


def test_the_reference_says_every_exit_code():
    defined = {
        exits.OK,
        exits.FAILURES_FOUND,
        exits.USAGE,
        exits.AUTH,
        exits.NOT_FOUND,
        exits.NOT_SUPPORTED,
        exits.UNREACHABLE,
        exits.OUTCOME_UNKNOWN,
        exits.INCOMPLETE,
    }
    said = [code for code, _ in exit_codes()]
    assert said == [*(str(code) for code in sorted(defined)), "130/143"]
    assert all(meaning for _, meaning in exit_codes())

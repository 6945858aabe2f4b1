"""argparse's help formatters, told the terminal's width. Left to itself argparse asks
`shutil.get_terminal_size()`, and importing shutil (with the compression modules it imports)
costs about 3 ms of every start (issue 26): argparse makes a formatter for each option added,
so even a command that prints no help would pay it. The width is found here as shutil finds
it, so help reads the same.

Beside cli/, not in it: the TUI's start reads `flagtui -P NAME` with argparse too, and loads no
module of cli/ but the package (tests/tui/test_start_cost.py)."""

from __future__ import annotations

import argparse
import os
import sys


def terminal_columns() -> int:
    """`shutil.get_terminal_size().columns`: COLUMNS when it is a positive number, else the
    width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
        return 80


class HelpFormatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # as argparse leaves a margin
        super().__init__(prog, indent_increment, max_help_position, width)


class RawDescriptionHelpFormatter(HelpFormatter):
    """Descriptions and epilogs folded to the width paragraph by paragraph (blank lines
    between them kept); a paragraph with an indented line (the exit codes' table) is laid out
    by hand and kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            if any(line.startswith(" ") for line in paragraph.splitlines()):
                paragraphs.append("".join(indent + ln for ln in paragraph.splitlines(True)))
            else:
                paragraphs.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(paragraphs)

"""The yardstick: a minimal Textual app with a DataTable of N rows (100 by default).

    python bench/minimal_app.py [--rows N]

Same shape of work as flagtui's features area, with nothing else: a header, a 6-column
zebra-striped row-cursor DataTable, a footer. Enter pushes a detail screen (Escape returns),
so every key the benchmark presses in flagtui has a counterpart here. Row i's first cell is
`minimal-row-NNNNN`; the detail screen says `Detail of minimal-row-NNNNN`.
"""

from __future__ import annotations

import argparse

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

TYPES = ["release", "experiment", "operational", "kill-switch", "permission"]
STAGES = ["initial", "pre-live", "live", "completed", "archived"]


def row(i: int) -> tuple[str, ...]:
    return (
        f"minimal-row-{i:05d}",
        TYPES[i % 5],
        STAGES[i % 5],
        "stale" if i % 7 == 0 else "",
        "✓✗" if i % 2 else "✗✓",
        f"2025-0{1 + i % 9}-1{i % 10}",
    )


class DetailScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.row_name = name

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(f"Detail of {self.row_name}\n\nEnvironments\n  development\n  production")
        yield Footer()


class MinimalApp(App[None]):
    BINDINGS = [Binding("q", "quit", "Quit"), Binding("enter", "open", "Open", priority=True)]

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Name", "Type", "Stage", "Stale", "Envs", "Created")
        table.add_rows(row(i) for i in range(self.rows))
        table.focus()

    def action_open(self) -> None:
        if not isinstance(self.screen, DetailScreen):
            table = self.query_one(DataTable)
            self.push_screen(DetailScreen(row(table.cursor_row)[0]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100)
    MinimalApp(parser.parse_args().rows).run()

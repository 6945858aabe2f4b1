"""How a command prints records: table (a terminal), JSON (piped), JSON lines or CSV.

Records are the API's JSON (camelCase field names, only the fields the server sent). JSON is
written ASCII-escaped, so no server string can reach a terminal as a control sequence; table and
CSV cells go through `clean()` (control characters made visible, bidirectional overrides
neutralised), as the TUI does.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from flagtui.display import clean

if TYPE_CHECKING:  # the commands' `--help` imports this module: pydantic only when printing
    from pydantic import BaseModel

MAX_CELL = 60
# A field whose null the API gives a meaning: an empty cell would read "not known". JSON keeps
# the API's null.
NULL_MEANS = {"lifetimeDays": "never", "lastSeenAt": "never"}


def say(out: Printer, line: str, fields: dict[str, Any]) -> None:
    """What a command says of its answer (how complete, how fresh, what a limit cut), one line
    on stderr in every format, stdout staying the data: a JSON `answer` object with JSON output,
    else `flagtui: <line>`."""
    if out.is_json:
        print(json.dumps({"answer": fields}), file=sys.stderr, flush=True)
    else:
        print(clean(f"flagtui: {line}"), file=sys.stderr, flush=True)


def warn(out: Printer, kind: str, message: str) -> None:
    """A warning, one line on stderr in every format: a JSON `warning` object with JSON
    output, else `flagtui: warning: <message>`."""
    if out.is_json:
        print(json.dumps({"warning": {"kind": kind, "message": message}}), file=sys.stderr)
    else:
        print(clean(f"flagtui: warning: {message}"), file=sys.stderr, flush=True)


def default_format() -> str:
    return "table" if sys.stdout.isatty() else "json"


def record(value: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """A model as the API's JSON: wire names, only the fields that were set."""
    if isinstance(value, dict):
        return value
    return value.model_dump(mode="json", by_alias=True, exclude_unset=True)


class Printer:
    """Prints one command's answer in the chosen format; `columns` are the table's and CSV's;
    a table cuts its cells at MAX_CELL characters but those of `whole` (a name that tells rows
    apart: a cut could make two read alike). (Not a dataclass: `dataclasses` imports `inspect`,
    7 ms of every command's start.)"""

    def __init__(self, format: str, columns: Sequence[str] = (), whole: Sequence[str] = ()) -> None:
        self.format = format
        self.columns = columns
        self.whole = whole

    @property
    def is_json(self) -> bool:
        return self.format in ("json", "jsonl")

    def many(self, items: Iterable[BaseModel | dict[str, Any]]) -> None:
        rows = [record(item) for item in items]
        if self.format == "json":
            _write(json.dumps(rows, indent=2))
        elif self.format == "jsonl":
            for row in rows:
                self.line(row)
        elif self.format == "csv":
            self._csv(rows)
        else:
            self._table(rows)

    def one(self, item: BaseModel | dict[str, Any]) -> None:
        row = record(item)
        if self.format == "json":
            _write(json.dumps(row, indent=2))
        elif self.format == "jsonl":
            self.line(row)
        elif self.format == "csv":
            self._csv([row])
        else:
            width = max((len(k) for k in row), default=0)
            for key, value in row.items():
                _write(f"{key:<{width}}  {cell(value, limit=None)}")

    def line(self, row: dict[str, Any]) -> None:
        """One JSON line, flushed (for --follow and jsonl)."""
        _write(json.dumps(row, separators=(",", ":")))

    def note(self, text: str) -> None:
        """A sentence for a person (table output only; JSON output stays parseable)."""
        if not self.is_json and self.format != "csv":
            _write(clean(text))

    def _columns(self, rows: list[dict[str, Any]]) -> list[str]:
        if self.columns:
            return list(self.columns)
        return list(dict.fromkeys(k for row in rows for k in row))

    def _csv(self, rows: list[dict[str, Any]]) -> None:
        columns = self._columns(rows)
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([csv_cell(_shown(row, c)) for c in columns])
        sys.stdout.flush()

    def _table(self, rows: list[dict[str, Any]]) -> None:
        columns = self._columns(rows)
        limits = [None if c in self.whole else MAX_CELL for c in columns]
        cells = [
            [cell(_shown(row, c), limit=n) for c, n in zip(columns, limits, strict=True)]
            for row in rows
        ]
        widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
        _write("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip())
        for r in cells:
            _write("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())


def _shown(row: dict[str, Any], column: str) -> Any:
    value = _get(row, column)
    if value is None and column in row:  # sent as null, not left out
        return NULL_MEANS.get(column)
    return value


def _get(row: dict[str, Any], column: str) -> Any:
    """A column's value; `a.b` reaches into a nested object."""
    value: Any = row
    for part in column.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def csv_cell(value: Any) -> str:
    """A cell a spreadsheet will not run: any cell starting like a formula (`=`, `+`, `-`, `@`)
    gets a leading `'`, as OWASP advises for CSV injection, whatever the value was (a list's
    cell is its items joined, so it starts with the first item's text); numbers stay numbers."""
    text = cell(value, limit=None)
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return f"'{text}" if not is_number and text[:1] in ("=", "+", "-", "@") else text


def cell(value: Any, *, limit: int | None = MAX_CELL) -> str:
    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        text = ",".join(str(v) for v in value)
    elif isinstance(value, dict | list):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    else:
        text = str(value)
    text = clean(text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()

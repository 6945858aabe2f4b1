"""What `flagtui api` sends, from its command line, as `gh api` reads its own: fields, headers
and the body (no client is imported here: `--help` imports this module).

- `-F/--field KEY=VALUE` types its value: `true`, `false`, `null` and integers become JSON's
  (gh's rule: `1.5` stays text), `@FILE` is the file's text (`@-` standard input); `-f/--raw-field`
  keeps the text as typed. `KEY[SUB]=V` nests an object, `KEY[]=V` appends to a list, `KEY[]`
  alone is an empty list.
- GET and HEAD send the fields as query parameters; other methods as a JSON object body, or,
  with `--input FILE|-` (the body sent as it is), as query parameters.
- `-H 'Name: value'` adds a header; never Authorization (the profile's token is sent, and a
  token typed on a command line is seen by others: `ps`, shell history), Host or
  Content-Length.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from flagtui.cli.exits import UsageError

KEY = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])*)$")
INTEGER = re.compile(r"^[+-]?[0-9]+$")
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
REFUSED_HEADERS = {
    "authorization": "the profile's token is sent; a token on a command line is seen by others"
    " (ps, shell history)",
    "proxy-authorization": "a secret on a command line is seen by others (ps, shell history)",
    "host": "the request goes to the profile's server only",
    "content-length": "it is the body's own length",
}
BODYLESS = ("GET", "HEAD")


class FieldOption(argparse.Action):
    """-F and -f into one list, in the order typed: (typed?, KEY=VALUE)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        fields = [*(getattr(namespace, self.dest, None) or []), (self.const == "typed", values)]
        setattr(namespace, self.dest, fields)


def field_values(fields: list[tuple[bool, str]]) -> list[tuple[str, Any]]:
    """Each field's KEY as typed and its value (typed by -F's rules)."""
    out: list[tuple[str, Any]] = []
    for typed, text in fields:
        option = "--field" if typed else "--raw-field"
        key, equals, raw = text.partition("=")
        if not equals:
            if key.endswith("[]") and KEY.match(key):
                out.append((key, _EMPTY_LIST))
                continue
            raise UsageError(f"{option} {text}: KEY=VALUE (or KEY[] for an empty list)")
        if not KEY.match(key):
            raise UsageError(f"{option} {text}: a KEY such as name, tags[] or parameters[rollout]")
        out.append((key, _typed(raw, option, key) if typed else raw))
    return out


_EMPTY_LIST = object()


def _typed(raw: str, option: str, key: str) -> Any:
    if raw.startswith("@"):
        return _read_text(raw[1:], f"{option} {key}=@")
    if raw in ("true", "false"):
        return raw == "true"
    if raw == "null":
        return None
    if INTEGER.match(raw):
        return int(raw)
    return raw


def _read_text(source: str, named: str) -> str:
    try:
        if source == "-":
            return sys.stdin.read()
        with open(source, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise UsageError(f"{named}{source}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{named}{source}: not UTF-8 text ({exc.reason})") from None


def read_body(source: str) -> bytes:
    """--input: a file's bytes, or standard input's for `-`, sent as they are."""
    try:
        if source == "-":
            return sys.stdin.buffer.read()
        with open(source, "rb") as file:
            return file.read()
    except OSError as exc:
        raise UsageError(f"--input {source}: cannot be read ({exc.strerror})") from None


def query(values: list[tuple[str, Any]]) -> list[tuple[str, str]]:
    """Fields as query parameters: each KEY as typed, its value as text (null as empty)."""
    params: list[tuple[str, str]] = []
    for key, value in values:
        if value is _EMPTY_LIST:
            continue
        text = "" if value is None else json.dumps(value) if isinstance(value, bool) else value
        params.append((key, str(text)))
    return params


def json_body(values: list[tuple[str, Any]]) -> dict[str, Any]:
    """Fields as a JSON object: KEY[SUB] nests, KEY[] appends."""
    body: dict[str, Any] = {}
    for key, value in values:
        match = KEY.match(key)
        assert match is not None  # field_values checked it
        path = [match.group(1), *re.findall(r"\[([^\[\]]*)\]", match.group(2))]
        if "" in path[:-1]:
            raise UsageError(f"field {key}: [] only at the end of a KEY")
        _put(body, path, value, key)
    return body


def _put(body: dict[str, Any], path: list[str], value: Any, key: str) -> None:
    *parents, last = path
    append = last == ""  # KEY[]=V appends; KEY[] alone makes the list, empty
    if append:
        *parents, last = parents
    here: Any = body
    for name in parents:
        here = here.setdefault(name, {})
        if not isinstance(here, dict):
            raise UsageError(f"field {key}: {name} is given both as a value and as an object")
    if append:
        items = here.setdefault(last, [])
        if not isinstance(items, list):
            raise UsageError(f"field {key}: {last} is given both as a list and as a value")
        if value is not _EMPTY_LIST:
            items.append(value)
    elif last in here:
        raise UsageError(f"field {key}: given twice")
    else:
        here[last] = value


def headers(given: list[str]) -> list[tuple[str, str]]:
    """-H 'Name: value' as (name, value); refused names and malformed lines name the option."""
    out: list[tuple[str, str]] = []
    for line in given:
        name, colon, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if not colon or not HEADER_NAME.match(name):
            raise UsageError(f"-H {line!r}: 'Name: value'")
        if not all(0x20 <= ord(c) < 0x7F for c in value):
            raise UsageError(f"-H {name}: a value of printable ASCII characters")
        if why := REFUSED_HEADERS.get(name.lower()):
            raise UsageError(f"-H {name}: not accepted ({why})")
        out.append((name, value))
    return out

"""flagtui in a real pseudo-terminal on hostile server text, and what must never reach it.

`open_flagtui` starts `python -m flagtui` (this checkout on PYTHONPATH, 80x24 unless told, an
empty HOME and XDG dirs, the server from UNLEASH_URL/UNLEASH_API_TOKEN, the area and project
remembered in the state file) and records every byte it writes. `Walk` presses keys and
waits, bounded, for the text each screen must show; `offences` lists what in the raw output
could only have come from server text.

What Textual itself writes (checked on 8.2.8): the alternate screen, cursor and mouse modes,
SGR colours, cursor moves, and OSC 22 (the pointer shape). It never clears with `ESC [ 2 J`
(only its inline driver does) and never sets the title, so any OSC 0/1/2, OSC 52 or `ESC [ 2 J`
in the stream is an injection, as is a C1 control or a BiDi override character.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flagtui.sandbox import hostile_data as hx
from testkit.pty_term import Term, Timeout

ROOT = Path(__file__).resolve().parents[1]
ENV_PROFILE = "env"  # the profile flagtui makes from UNLEASH_URL
WAIT_S = 20.0
KEY_ECHO_S = 3.0  # a key's first output, on a loaded machine

BIDI_OVERRIDES = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
FORBIDDEN = [
    ("OSC 52 (clipboard write)", re.compile(r"\x1b\]52;|\x9d52;")),
    ("OSC 0/1/2 (window title)", re.compile(r"\x1b\][012];")),
    ("ESC [ 2 J (clear screen)", re.compile(r"\x1b\[2J")),
    ("a C1 control character", re.compile("[\x80-\x9f]")),
    ("a BiDi override or isolate", re.compile(f"[{BIDI_OVERRIDES}]")),
    ("the server's colour sequence", re.compile(re.escape(hx.CSI_RED + hx.RED_MARK))),
    ("a hyperlink to the server's target", re.compile(r"\x1b\]8;[^\x1b\x07]*evil\.example")),
]
TRACEBACK = re.compile(r"Traceback \(most recent call last\)")


def offences(raw: bytes) -> list[str]:
    """What in a terminal's output stream came from server text (a sample of each)."""
    text = raw.decode("utf-8", "replace")
    found = []
    for what, pattern in FORBIDDEN:
        match = pattern.search(text)
        if match:
            found.append(f"{what}: …{text[max(0, match.start() - 40) : match.end() + 20]!r}")
    return found


def flagtui_env(home: Path, token: str, url: str | None = None) -> dict[str, str]:
    """The checkout's flagtui in `home` (its XDG dirs there), with the token (and the server,
    when given) from the environment."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
        "UNLEASH_API_TOKEN": token,
    }
    if url is not None:
        env["UNLEASH_URL"] = url
    return env


@contextmanager
def open_flagtui(
    url: str, token: str, home: Path, *, area: str, project: str, cols: int = 80, rows: int = 24
) -> Iterator[Term]:
    state = home / "state" / "flagtui" / "state.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({ENV_PROFILE: {"area": area, "project": project}}))
    env = flagtui_env(home, token, url)
    with Term([sys.executable, "-m", "flagtui"], env, cols=cols, rows=rows, record=True) as term:
        yield term


class Walk:
    """Keys pressed and screens reached, with the raw output checked after every screen."""

    def __init__(self, term: Term) -> None:
        self.term = term
        self.seen: list[str] = []
        self._scanned = 0  # raw output already looked at while waiting

    def _press(self, key: str) -> None:
        """Send `key` and wait for what it drew, then for quiet: a key may move focus, and on a
        loaded machine the app can take longer than any fixed quiet period to answer it (text
        typed after "/" then went to the table, not to the filter it opens)."""
        before = self.term.bytes_read
        try:
            self.term.press(key, lambda t: t.bytes_read > before, KEY_ECHO_S)
        except Timeout:  # a key that draws nothing: the step's own wait says what is missing
            return
        self.term.settle(quiet=0.05, limit=1)

    def step(self, name: str, keys: list[str], *expected: str, gone: str = "") -> None:
        """Press `keys` (each a named key, or text typed in one write), then wait until every
        `expected` text is on screen (and `gone` is not); fail at once, naming the screen, on a
        crash, a traceback or an offence."""
        for key in keys:
            self._press(key)

        def reached(t: Term) -> bool:
            shown = all(t.has(text) for text in expected) and not (gone and t.has(gone))
            return shown or self._broken()

        try:
            self.term.wait_for(reached, WAIT_S, name)
        except Timeout as exc:  # exited, or alive but never showed the screen (hung, refused)
            raise AssertionError(f"{name}: {exc}") from None
        self.term.settle(quiet=0.2, limit=3)
        self.check(name)
        self.seen.append(name)

    def _broken(self) -> bool:
        """Stop waiting: the program ended, shows a traceback, or wrote an offence (a cleared
        screen may never show the awaited text)."""
        if self.term.proc.poll() is not None or TRACEBACK.search(self.term.text()):
            return True
        start, self._scanned = max(0, self._scanned - 256), len(self.term.raw)
        return bool(offences(bytes(self.term.raw[start:])))

    def check(self, name: str, *, running: bool = True) -> None:
        after = f"after {', '.join(self.seen) or 'start'}; at {name}"
        code = self.term.proc.poll()
        if running:
            assert code is None, f"flagtui exited ({code}) {after}:\n{self.term.text()}"
        assert not TRACEBACK.search(self.term.text()), f"traceback {after}:\n{self.term.text()}"
        found = offences(bytes(self.term.raw))
        assert not found, f"server text reached the terminal raw {after}:\n" + "\n".join(found)
        # pyte reads Textual's own OSC 22 (pointer shape) as a title ";default": look for ours.
        titles = f"{self.term.screen.title} {self.term.screen.icon_name}"
        assert "pwned" not in titles, f"window title set {after}: {titles!r}"

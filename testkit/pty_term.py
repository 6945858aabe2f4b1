"""A program in a real pseudo-terminal, its output read through the pyte terminal emulator.

Times are taken when the bytes ARRIVE on the pty master (before pyte parses them), so the
emulator's own parsing cost is not charged to the program under test. With `record=True` every
byte the program wrote is kept in `raw`, for tests that check what reached the terminal.
Shared by the benchmarks (bench/) and the pty tests.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Mapping, Sequence

import pyte
from wcwidth import wcwidth

Predicate = Callable[["Term"], bool]

KEYS = {
    "down": b"\x1b[B",
    "up": b"\x1b[A",
    "pagedown": b"\x1b[6~",
    "pageup": b"\x1b[5~",
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
}


class Timeout(Exception):
    pass


def _take_terminal() -> None:
    """In the child, after its new session began: its stdin becomes its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Term:
    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cols: int = 80,
        rows: int = 24,
        cwd: str | None = None,
        record: bool = False,
        controlling: bool = False,
    ) -> None:
        """`controlling`: the terminal is the program's controlling terminal, as a shell's is
        for its job (Ctrl-C then sends SIGINT to it whenever it leaves the terminal's ISIG on)."""
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
            close_fds=True,
            preexec_fn=_take_terminal if controlling else None,
        )
        os.close(slave)
        self.fd = master
        os.set_blocking(master, False)
        self.last_arrival = self.t0
        self.bytes_read = 0
        self.eof = False
        self.record = record
        self.raw = bytearray()

    # -- reading -------------------------------------------------------------------------------

    def pump(self, timeout: float) -> float | None:
        """Wait up to `timeout` for output; feed all that is available. Returns arrival time."""
        if self.eof:
            time.sleep(max(0.0, timeout))
            return None
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return None
        arrived = time.perf_counter()
        chunks = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            except OSError:  # EIO: the child closed the terminal
                self.eof = True
                break
            if not data:
                self.eof = True
                break
            chunks.append(data)
        if chunks:
            data = b"".join(chunks)
            self.bytes_read += len(data)
            if self.record:
                self.raw += data
            self.stream.feed(data)
            self.last_arrival = arrived
            return arrived
        return None

    def wait_for(self, predicate: Predicate, timeout: float = 30.0, what: str = "") -> float:
        """Arrival time of the output that made `predicate` true (now, if it already is)."""
        if predicate(self):
            return time.perf_counter()
        deadline = time.perf_counter() + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise Timeout(f"timed out waiting for {what or predicate}:\n{self.text()}")
            arrived = self.pump(remaining)
            if arrived is not None and predicate(self):
                return arrived
            if self.eof and self.proc.poll() is not None:
                raise Timeout(f"the program exited waiting for {what}:\n{self.text()}")

    def settle(self, quiet: float = 0.05, limit: float = 5.0) -> None:
        """Read until no output has come for `quiet` seconds (at most `limit`)."""
        end = time.perf_counter() + limit
        while time.perf_counter() < end:
            if self.pump(quiet) is None:
                return

    def wait_exit(self, timeout: float = 30.0) -> int:
        """The program's exit code, its output read meanwhile: a program that writes as it
        leaves (a last frame, the terminal's reset) blocks on a full terminal nobody reads, and
        `proc.wait` alone would wait for it until the timeout."""
        deadline = time.perf_counter() + timeout
        while (code := self.proc.poll()) is None:
            if time.perf_counter() > deadline:
                raise subprocess.TimeoutExpired(self.proc.args, timeout)
            self.pump(0.05)
        return code

    # -- writing ------------------------------------------------------------------------------

    def send(self, key: str | bytes) -> float:
        data = KEYS.get(key, key.encode()) if isinstance(key, str) else key
        sent = time.perf_counter()
        os.write(self.fd, data)
        return sent

    def press(self, key: str, effect: Predicate, timeout: float = 10.0) -> float:
        """Seconds from writing `key` to the arrival of the output that shows `effect`."""
        sent = self.send(key)
        return self.wait_for(effect, timeout, f"effect of {key!r}") - sent

    # -- the screen ---------------------------------------------------------------------------

    def lines(self) -> list[str]:
        """pyte's `display`, except for the right half of a wide character whose left half
        was drawn over (a text whose emoji moved between two frames): `display` raises on it,
        a terminal shows a blank, and so does this."""
        lines = []
        for y in range(self.screen.lines):
            row, cells, wide = self.screen.buffer[y], [], False
            for x in range(self.screen.columns):
                char = row[x].data
                if wide:  # the right half of the wide character just read
                    wide = False
                    continue
                cells.append(char or " ")
                wide = bool(char) and wcwidth(char[0]) == 2
            lines.append("".join(cells))
        return lines

    def text(self) -> str:
        return "\n".join(self.lines())

    def has(self, needle: str) -> bool:
        return any(needle in line for line in self.lines())

    def line_styles(self, column: int = 1) -> tuple[str, ...]:
        """The background colour of one column on every line (moves with the row cursor)."""
        buf = self.screen.buffer
        return tuple(buf[y][column].bg for y in range(self.screen.lines))

    def signature(self, first: int, last: int) -> tuple[object, ...]:
        """Text and background of lines first..last: changes when a table's view changes."""
        buf = self.screen.buffer
        display = self.lines()
        return tuple((display[y], buf[y][1].bg, buf[y][10].bg) for y in range(first, last + 1))

    # -- the process --------------------------------------------------------------------------

    def peak_rss_mb(self) -> float | None:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def hang_up(self) -> None:
        """Close the terminal's side, as a terminal emulator that goes away does: the program
        reads the terminal's end (and, if it is its controlling terminal, gets SIGHUP)."""
        os.close(self.fd)
        self.fd = -1
        self.eof = True

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.fd >= 0:
            os.close(self.fd)

    def __enter__(self) -> Term:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

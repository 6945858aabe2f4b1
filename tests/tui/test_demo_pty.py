"""`flagtui demo` in a real terminal: its server runs in a process of its own (started before the
TUI is imported, so both start side by side), and that process never outlives the TUI,
however the TUI ends; a server that cannot start is said, with its log, and exit 1."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from hostile_pty import flagtui_env

from testkit.pty_term import Term


def demo(home: Path) -> Term:
    env = flagtui_env(home, token="")
    del env["UNLEASH_API_TOKEN"]  # the demo makes its own server and token
    return Term([sys.executable, "-m", "flagtui", "demo"], env, cols=120, rows=40)


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:  # field 4: the parent's pid
                found.append(int(entry.name))
    return found


def gone(pid: int, within: float = 30.0) -> bool:
    """Whether `pid` ends (or is a zombie nobody waits for) before the deadline: a wait for
    the event, generous for a loaded machine, not a bound on how fast it happens."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def started(term: Term) -> int:
    """The server process's pid, once the demo's first rows are on screen."""
    term.wait_for(lambda t: t.has("page 1/"), 90, "the demo's first rows")
    servers = children(term.proc.pid)
    assert len(servers) == 1, servers
    return servers[0]


def test_the_demo_server_stops_when_the_tui_quits(tmp_path: Path) -> None:
    with demo(tmp_path) as term:
        server = started(term)
        term.send("q")
        assert term.wait_exit(30) == 0
        assert gone(server)


def test_the_demo_server_stops_on_a_hang_up(tmp_path: Path) -> None:
    """What closing the terminal (or `tmux kill-session`) does: SIGHUP to the whole group."""
    with demo(tmp_path) as term:
        server = started(term)
        os.killpg(term.proc.pid, signal.SIGHUP)
        term.wait_exit(30)
        assert gone(server)


def test_the_demo_server_stops_when_the_tui_is_killed(tmp_path: Path) -> None:
    """kill -9 of the TUI alone: the server sees its stdin close."""
    with demo(tmp_path) as term:
        server = started(term)
        os.kill(term.proc.pid, signal.SIGKILL)
        term.wait_exit(30)
        assert gone(server)


def test_a_demo_server_that_cannot_start_is_said_with_its_log(tmp_path: Path) -> None:
    data = tmp_path / "data" / "flagtui"
    data.mkdir(parents=True)
    (data / "demo.db").write_bytes(b"not a database, " * 64)
    with demo(tmp_path) as term:
        term.wait_for(lambda t: t.has("the demo server did not start"), 90, "the message")
        assert term.wait_exit(30) == 1
        term.settle(0.2)
        assert "database" in term.text().lower()  # the log's last lines say what failed

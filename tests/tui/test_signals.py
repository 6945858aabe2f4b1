"""SSH life: a dropped session (SIGHUP, or the terminal going away) and SIGTERM end flagtui
cleanly, without spinning. The tests wait for the exit itself, with no time bound (a loaded
machine is slow, not wrong): a flagtui that never ended would fail on the suite's timeout."""

from __future__ import annotations

import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from fcntl import ioctl

import pytest

from testkit.pty_term import Term

READY_TEXT = b"page 1/"  # the first page read: the header alone comes before the imports


class _Child:
    """flagtui on a pseudo-terminal that is its controlling terminal, as under sshd."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
        os.waitpid(self.pid, 0)


def _env(sandbox, tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "TERM": "xterm-256color",
        "UNLEASH_URL": sandbox.url,
        "UNLEASH_API_TOKEN": sandbox.admin_token,
        "FLAGTUI_CONFIG": str(tmp_path / "none.toml"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }


def _spawn(sandbox, tmp_path) -> tuple[_Child, int]:
    env = _env(sandbox, tmp_path)
    pid, master = pty.fork()
    if pid == 0:  # the child: pty.fork made the terminal its controlling terminal
        ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execve(sys.executable, [sys.executable, "-m", "flagtui"], env)
    return _Child(pid), master


def _read_until(master: int, wanted: bytes, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


def _drain(master: int) -> None:
    try:
        while select.select([master], [], [], 0)[0] and os.read(master, 65536):
            pass
    except OSError:
        pass


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM", "terminal closed"])
def test_flagtui_exits(sandbox, tmp_path, how):
    proc, master = _spawn(sandbox, tmp_path)
    try:
        assert READY_TEXT in _read_until(master, READY_TEXT, timeout=60), (
            "TUI never drew its first page"
        )
        idle_before = _cpu_seconds(proc.pid)
        time.sleep(1.0)
        _drain(master)
        idle_cpu = _cpu_seconds(proc.pid) - idle_before
        assert idle_cpu < 0.5, f"flagtui used {idle_cpu:.2f} s of CPU in 1 s while idle"
        if how == "terminal closed":
            os.close(master)
            master = -1
        else:
            proc.send_signal(getattr(signal, how))
        while proc.poll() is None:
            if master >= 0:
                _drain(master)  # what it writes while ending must not block it
            time.sleep(0.02)
        if how != "terminal closed":
            assert proc.returncode == 0, f"exit status {proc.returncode} after {how}"
    finally:
        if proc.poll() is None:
            proc.kill()
        if master >= 0:
            os.close(master)


def test_flagtui_exits_when_a_terminal_it_does_not_control_goes_away(sandbox, tmp_path):
    """Only a controlling terminal sends SIGHUP. On a pseudo-terminal that is not flagtui's
    controlling one, nothing told the app it was gone, and Textual's input thread read the
    terminal's end in a loop: a core at 100 % for good, after the user had left."""
    # testkit's Term: a session of its own on a pseudo-terminal it does not control.
    with Term([sys.executable, "-m", "flagtui"], _env(sandbox, tmp_path)) as term:
        term.wait_for(lambda t: t.has(READY_TEXT.decode()), 60, "the first page")
        term.hang_up()
        term.proc.wait()  # no time bound: a flagtui that stayed would fail on the suite's timeout

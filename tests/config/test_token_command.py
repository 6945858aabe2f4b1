"""token_command: its own process group, killed whole on timeout, on Ctrl-C, on SIGTERM and when
it exits; it says it runs; its output must be the token alone. Real scripts, real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import flagtui
from flagtui import config
from flagtui.config import ConfigError, token_command

from .helpers import alive, python_command, write_config

ROOT = Path(flagtui.__file__).parents[1]

# Starts a sleeping child (its pid written to `child.pid`), then does `then`.
WITH_CHILD = """
import subprocess, sys, time
from pathlib import Path
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
Path(sys.argv[1]).write_text(str(child.pid))
{then}
"""
HANG = "time.sleep(300)"


def profile_running(tmp_path: Path, code: str) -> config.Profile:
    command = python_command(tmp_path, code) + f" {tmp_path / 'child.pid'}"
    write_config(tmp_path, f'[profiles.a]\nurl = "http://a.test"\ntoken_command = "{command}"\n')
    return config.select_profile(config.load_config(), "a")


def child_pid(tmp_path: Path, timeout: float = 60) -> int:
    path = tmp_path / "child.pid"
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < deadline, "the token_command never started its child"
        time.sleep(0.05)
    return int(path.read_text())


def gone(pid: int, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_a_hanging_command_is_killed_with_its_children(isolated, monkeypatch):
    monkeypatch.setattr(token_command, "TIMEOUT", 1.0)
    profile = profile_running(isolated, WITH_CHILD.format(then=HANG))
    # The command sleeps 300 s: the error is proof it was stopped (no time bound asserted: a
    # loaded machine is slow, not wrong; the suite's timeout ends a wait that never ends).
    with pytest.raises(ConfigError, match="did not finish within 1 s; it was stopped"):
        config.resolve_token(profile)
    assert gone(child_pid(isolated))


def test_what_it_leaves_running_is_killed_when_it_exits(isolated):
    profile = profile_running(isolated, WITH_CHILD.format(then="print('the-token')"))
    assert config.resolve_token(profile).token == "the-token"
    assert gone(child_pid(isolated))


def test_the_terminal_says_it_runs(isolated, capsys):
    profile = profile_running(isolated, "print('the-token')")
    config.resolve_token(profile)
    err = capsys.readouterr().err
    assert "running the token_command of profile 'a'" in err
    assert f"stopped after {token_command.TIMEOUT:g} s" in err
    assert "the-token" not in err


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("print('line-one'); print('line-two')", "printed 2 lines: it must print the token alone"),
        ("import sys; sys.stdout.buffer.write(b'\\xff\\xfe')", "not UTF-8"),
        ("print('a\\x1b[2Jb')", "printed control characters"),
        ("pass", "printed nothing"),
    ],
)
def test_output_that_is_not_one_token_is_refused(isolated, code, message):
    profile = profile_running(isolated, code)
    with pytest.raises(ConfigError, match=message) as caught:
        config.resolve_token(profile)
    assert "line-one" not in str(caught.value)


def test_a_command_that_cannot_start_is_explained(isolated):
    write_config(
        isolated, '[profiles.a]\nurl = "http://a.test"\ntoken_command = "/nonexistent/pass"\n'
    )
    with pytest.raises(ConfigError, match=r"could not start .*: fix it in"):
        config.resolve_token(config.select_profile(config.load_config(), "a"))


def launch(tmp_path: Path) -> subprocess.Popen[str]:
    """`flagtui -P a` in its own process group, as a shell runs a foreground job."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "flagtui", "-P", "a"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


@pytest.mark.parametrize(
    ("signum", "status", "said"),
    [
        (signal.SIGINT, 130, "interrupted"),
        (signal.SIGTERM, 143, "terminated"),
        (signal.SIGHUP, 129, "hung up"),
    ],
)
def test_ctrl_c_sigterm_or_sighup_stops_it_cleanly(isolated, signum, status, said):
    profile_running(isolated, WITH_CHILD.format(then=HANG))
    flagtui_process = launch(isolated)
    try:
        child = child_pid(isolated)
        # Ctrl-C reaches the terminal's foreground group: flagtui's, not the command's own.
        os.killpg(flagtui_process.pid, signum)
        _, err = flagtui_process.communicate(timeout=120)
    finally:
        if flagtui_process.poll() is None:
            flagtui_process.kill()
    assert flagtui_process.returncode == status
    assert f"flagtui: {said} while the token_command of profile 'a' ran" in err
    assert "Traceback" not in err
    assert gone(child)

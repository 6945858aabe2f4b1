"""A profile's `token_command`: run without a shell, in its own process group, bounded in time.

It runs before the TUI starts, so one line on stderr says it is running (a profile switch inside
the TUI says it on screen instead, through `announce`). On timeout, Ctrl-C, SIGTERM or SIGHUP
the whole group is killed (a password manager's helpers included), and what it left running
when it exited too; `stop_token_commands()` kills the groups of those still running when the
TUI leaves. Its stdout is the token: never shown, one line or refused.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType

from flagtui.config.profiles import ConfigError, Profile, config_path

# Long enough to touch a security key or unlock a password manager's agent.
TIMEOUT = 30.0
_GRACE = 1.0  # between SIGTERM and SIGKILL to the group
_MAX_OUTPUT = 64 * 1024  # a token is far shorter; more is not kept


class Interrupted(Exception):
    """The user stopped flagtui (Ctrl-C, SIGTERM) while a token_command ran; it is gone now."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class _Signalled(BaseException):
    """SIGTERM or SIGHUP arrived while the command ran."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_ENDING_SIGNALS = {signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}


# The commands under way: the TUI runs them in worker threads, and stops them when it leaves.
_running: set[subprocess.Popen[bytes]] = set()
_running_lock = threading.Lock()


def announce_on_stderr(running: str) -> None:
    print(f"flagtui: {running}; Ctrl-C to cancel...", file=sys.stderr, flush=True)


def run_token_command(
    profile: Profile, announce: Callable[[str], None] = announce_on_stderr
) -> str:
    """The token the profile's command prints; `announce` is told, in a sentence, that it runs."""
    assert profile.token_command is not None
    what = f"token_command of profile {profile.name!r}"
    try:
        argv = shlex.split(profile.token_command)
    except ValueError as exc:
        raise ConfigError(f"{what} cannot be read ({exc}): fix it in {config_path()}") from None
    if not argv:
        raise ConfigError(f"{what} is empty: fix it in {config_path()}")
    announce(f"running the {what} (stopped after {TIMEOUT:g} s)")
    try:
        # Its own process group: one signal reaches everything it starts. stdin is not the
        # terminal (a background group reading it would stop, then hang until the timeout).
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            process_group=0,
        )
    except OSError as exc:
        raise ConfigError(
            f"{what} could not start ({exc.strerror or exc}): fix it in {config_path()}"
        ) from None
    with _running_lock:
        _running.add(process)
    try:
        with _sigterm_raises():
            out, err = _collect(process, time.monotonic() + TIMEOUT)
    except subprocess.TimeoutExpired:
        _stop(process)
        raise ConfigError(
            f"{what} did not finish within {TIMEOUT:g} s; it was stopped, with everything it "
            "started. Check that it runs on its own without asking on the terminal"
        ) from None
    except KeyboardInterrupt:
        _stop(process)
        raise Interrupted(f"interrupted while the {what} ran; it was stopped", 130) from None
    except _Signalled as caught:
        _stop(process)
        said = _ENDING_SIGNALS[signal.Signals(caught.signum)]
        message = f"{said} while the {what} ran; it was stopped"
        raise Interrupted(message, 128 + caught.signum) from None
    finally:
        with _running_lock:
            _running.discard(process)
        _signal_group(process.pid, signal.SIGKILL)  # whatever it left behind
    return _token_from(what, process.returncode, out, err)


def stop_token_commands() -> None:
    """Kill every token_command still running, with its whole group (the TUI is leaving: a
    profile switch's command must not outlive it, nor make its exit wait for the timeout)."""
    with _running_lock:
        running = list(_running)
    for process in running:
        _signal_group(process.pid, signal.SIGKILL)


def _collect(process: subprocess.Popen[bytes], deadline: float) -> tuple[bytes, bytes]:
    """stdout and stderr until the command exits (TimeoutExpired at the deadline). What it left
    running is killed then: a helper holding the pipes open must not make us wait for it."""
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout, process.stderr
    sinks = {out.fileno(): bytearray(), err.fileno(): bytearray()}
    exited_at: float | None = None
    with selectors.DefaultSelector() as selector:
        for fd in sinks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            now = time.monotonic()
            if exited_at is None and process.poll() is not None:
                _signal_group(process.pid, signal.SIGKILL)
                exited_at = now
            if exited_at is not None and now - exited_at > _GRACE:
                break  # a process outside the group still holds a pipe
            if exited_at is None and now > deadline:
                raise subprocess.TimeoutExpired(process.args, TIMEOUT)
            for key, _ in selector.select(0.05):
                data = os.read(key.fd, 65536)
                if data and len(sinks[key.fd]) < _MAX_OUTPUT:
                    sinks[key.fd] += data
                elif not data:
                    selector.unregister(key.fd)
    process.wait(max(0.0, deadline - time.monotonic()))  # it may have closed its pipes early
    collected = bytes(sinks[out.fileno()]), bytes(sinks[err.fileno()])
    out.close()
    err.close()
    return collected


def _token_from(what: str, returncode: int, out: bytes, err: bytes) -> str:
    if returncode != 0:
        # stderr may help; stdout may hold a secret and is never shown.
        lines = err.decode("utf-8", "replace").strip().splitlines()[:1]
        hint = "".join(c if c.isprintable() else "?" for c in lines[0][:200]) if lines else ""
        raise ConfigError(f"{what} failed with exit {returncode}" + (f": {hint}" if hint else ""))
    try:
        token = out.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ConfigError(f"{what} printed something that is not UTF-8 text") from None
    if not token:
        raise ConfigError(f"{what} printed nothing")
    lines = token.splitlines()
    if len(lines) > 1:
        raise ConfigError(
            f"{what} printed {len(lines)} lines: it must print the token alone, on one line"
        )
    if not token.isprintable():
        raise ConfigError(f"{what} printed control characters: it must print the token alone")
    return token


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the whole group, SIGKILL after a grace period; reap the command."""
    _signal_group(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(_GRACE)
    _signal_group(process.pid, signal.SIGKILL)
    process.wait()
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP (the terminal went away) into an exception while the command
    runs, so its group is killed too instead of left behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise _Signalled(signum)

    previous = {signum: signal.signal(signum, handler) for signum in _ENDING_SIGNALS}
    try:
        yield
    finally:
        for signum, action in previous.items():
            signal.signal(signum, action)

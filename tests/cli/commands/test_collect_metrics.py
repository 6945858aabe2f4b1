"""`flagtui collect --metrics` and `--textfile` against a real sandbox, with real processes:
the series Prometheus reads, counters that survive a restart (read from the archive), the
address chosen (loopback unless an IP address says otherwise), the textfile replaced whole.
(The alerting rules and Prometheus itself: test_collect_alerting.py, contrib/.)"""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx

from ..processes import command_env, patch_many
from .scraped import named, one, samples


class Running:
    """`flagtui collect --interval 1 --metrics 0 …` until stopped; its metrics' URL read from
    the line it logs."""

    def __init__(self, env: dict[str, str], *extra: str, ready: str = "collecting every") -> None:
        argv = [sys.executable, "-m", "flagtui", "collect", "--interval", "1", *extra]
        self.proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        self.url = ""
        self.lines: list[str] = []
        assert self.proc.stderr is not None
        for line in iter(self.proc.stderr.readline, ""):
            self.lines.append(line)
            if "metrics at " in line:
                self.url = line.split("metrics at ")[1].split()[0]
            if ready in line:
                return
        raise AssertionError(f"the collector ended before collecting: {self.lines}")

    def scrape(self) -> dict:
        answer = httpx.get(self.url, timeout=30)
        answer.raise_for_status()
        return samples(answer.text)

    def stop(self) -> int:
        self.proc.terminate()
        code = self.proc.wait(60)
        assert self.proc.stderr is not None
        self.proc.stderr.close()
        return code


def test_the_series_and_a_restart_that_keeps_the_counters(cli_env, sandbox, server):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    patch_many(server, 3, "metrics")
    first = Running(env, "--metrics", "0")
    try:
        assert first.url.startswith("http://127.0.0.1:")
        assert "(loopback only)" in first.lines[0]
        before = first.scrape()
    finally:
        assert first.stop() == 0
    deliveries = named(before, "flagtui_integration_deliveries_total")
    datadog = named(before, "flagtui_integration_deliveries_total", provider="datadog")
    by_state = {dict(k)["state"]: v for k, v in datadog.items()}
    assert by_state["failed"] > 0 and by_state["success"] == 0  # its key is revoked
    assert all(("server", sandbox.url) in key for key in deliveries)
    assert one(before, "flagtui_integration_enabled", provider="slack") == 0
    assert one(before, "flagtui_integration_enabled", provider="datadog") == 1
    assert (
        one(before, "flagtui_integration_last_success_timestamp_seconds", provider="datadog") == 0
    )
    assert one(before, "flagtui_integration_last_failure_timestamp_seconds", provider="datadog") > 0
    assert one(before, "flagtui_server_up", server=sandbox.url) == 1
    assert one(before, "flagtui_archive_complete") == 1
    assert one(before, "flagtui_collector_last_success_timestamp_seconds") > 0
    # No label names a flag or an event.
    names = {name for key in deliveries for name, _ in key}
    assert names == {"server", "integration_id", "description", "provider", "state"}

    second = Running(env, "--metrics", "127.0.0.1:0")
    try:
        after = second.scrape()
    finally:
        assert second.stop() == 0
    # Counted from the archive: no counter starts again (nothing was delivered in between).
    assert named(after, "flagtui_integration_deliveries_total") == deliveries
    assert sum(deliveries.values()) > 0


def test_server_text_in_labels_is_cleaned(cli_env, sandbox):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    running = Running(env, "--metrics", "0")
    try:
        text = httpx.get(running.url, timeout=30).text
    finally:
        assert running.stop() == 0
    assert "hx-addon" in text  # the hostile integration is there...
    assert "\x1b" not in text and "\u202e" not in text  # ...without its escapes


def test_the_textfile_is_replaced_whole_after_each_poll(cli_env, sandbox, server):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    path = cli_env / "flagtui.prom"
    running = Running(env, "--textfile", str(path))
    try:
        first = samples(path.read_text())
        patch_many(server, 2, "textfile")
        while True:  # the next polls store the new deliveries, and the file says so
            now = samples(path.read_text())
            key = "flagtui_collector_last_success_timestamp_seconds"
            if named(now, key) != named(first, key) and sum(
                named(now, "flagtui_integration_deliveries_total").values()
            ) > sum(named(first, "flagtui_integration_deliveries_total").values()):
                break
            time.sleep(0.1)
    finally:
        assert running.stop() == 0
    assert running.url == ""  # no HTTP server was asked for
    assert [p.name for p in cli_env.iterdir() if p.name.startswith("flagtui.prom")] == [
        "flagtui.prom"
    ]  # no temporary file left beside it


def test_refused_values_name_the_option(run, cli_env):
    cases = {
        ("--metrics", "metrics.example:9464"): "--metrics: the address to listen on must be",
        ("--metrics", "127.0.0.1:99999"): "--metrics: a port from 0 to 65535",
        ("--textfile", str(cli_env / "metrics.txt")): "--textfile: node_exporter reads only",
        ("--textfile", str(cli_env / "none" / "m.prom")): "--textfile: the folder",
        ("--metrics", "0", "--once"): "--metrics and --textfile report a running collector",
    }
    for argv, start in cases.items():
        result = run("collect", *argv, "-o", "table")
        assert result.code == 2, (argv, result.err)
        assert result.line.startswith(f"flagtui: {start}"), result.line


def test_a_port_in_use_is_one_line(run, cli_env):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run("collect", "--metrics", str(port), "-o", "table")
    assert result.code == 2
    assert result.line.startswith(f"flagtui: --metrics: cannot listen on 127.0.0.1:{port}")


def test_a_non_loopback_address_is_said(cli_env, sandbox):
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    running = Running(env, "--metrics", "0.0.0.0:0")
    try:
        assert "(NOT loopback)" in running.lines[0] and "http://0.0.0.0:" in running.lines[0]
    finally:
        assert running.stop() == 0


def test_a_server_that_does_not_answer_is_said_with_the_reason(cli_env, sandbox):
    with socket.create_server(("127.0.0.1", 0)) as closed:
        url = f"http://127.0.0.1:{closed.getsockname()[1]}"
    (cli_env / "config.toml").write_text(f'[profiles.gone]\nurl = "{url}"\n')
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    env["UNLEASH_URL"] = url
    running = Running(env, "-P", "gone", "--metrics", "0", ready="poll failed")
    try:
        found = running.scrape()
    finally:
        assert running.stop() == 0
    assert one(found, "flagtui_server_up", server=url) == 0
    assert one(found, "flagtui_collector_poll_errors_total", reason="Unreachable") >= 1
    assert one(found, "flagtui_archive_complete") == 0
    assert one(found, "flagtui_collector_start_timestamp_seconds") > 0
    assert not named(found, "flagtui_collector_last_success_timestamp_seconds")  # never

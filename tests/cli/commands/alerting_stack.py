"""Real Prometheus and Alertmanager (Debian's packages) on loopback for the alerting tests:
each on a free port with its data in the test's tmp dir, never the system services' ports or
files; and a webhook receiver collecting what Alertmanager posts."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

RULES = Path(__file__).resolve().parents[3] / "contrib" / "prometheus" / "flagtui-rules.yml"
ALERTMANAGER = ("prometheus-alertmanager", "alertmanager")


def binaries() -> dict[str, str] | None:
    """The paths of prometheus, promtool and Alertmanager; None when one is missing."""
    alertmanager = next((p for p in map(shutil.which, ALERTMANAGER) if p), None)
    prometheus, promtool = shutil.which("prometheus"), shutil.which("promtool")
    if not (alertmanager and prometheus and promtool):
        return None
    return {"prometheus": prometheus, "promtool": promtool, "alertmanager": alertmanager}


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return int(s.getsockname()[1])


def wait_for(what: str, check: Callable[[], Any], deadline_s: float = 300) -> Any:
    """check()'s first truthy answer; a generous deadline only stops a hang."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {deadline_s:g} s")


class Receiver:
    """Alertmanager's webhook receiver: every alert posted, with the notification's status."""

    def __init__(self) -> None:
        self.alerts: list[dict[str, Any]] = []
        received = self.alerts
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with lock:
                    received.extend(body["alerts"])
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def find(self, status: str, **labels: str) -> dict[str, Any] | None:
        for alert in list(self.alerts):
            if alert["status"] == status and labels.items() <= alert["labels"].items():
                return alert
        return None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Stack:
    """Alertmanager posting to `receiver`, and Prometheus scraping `target` every second with
    the example rules, evaluated every second."""

    def __init__(self, tools: dict[str, str], folder: Path, target: str, receiver: str) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []
        self.logs = folder
        am_port, prom_port = free_port(), free_port()
        (folder / "alertmanager.yml").write_text(
            json.dumps(
                {
                    "route": {
                        "receiver": "test",
                        "group_by": ["..."],  # each alert its own notification
                        "group_wait": "1s",
                        "group_interval": "1s",
                        "repeat_interval": "1h",
                    },
                    "receivers": [
                        {
                            "name": "test",
                            "webhook_configs": [{"url": receiver, "send_resolved": True}],
                        }
                    ],
                }
            )
        )
        self._start(
            "alertmanager",
            tools["alertmanager"],
            f"--config.file={folder / 'alertmanager.yml'}",
            f"--storage.path={folder / 'am-data'}",
            f"--web.listen-address=127.0.0.1:{am_port}",
            "--cluster.listen-address=",  # no gossip port: a single Alertmanager
        )
        (folder / "prometheus.yml").write_text(
            json.dumps(
                {
                    "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                    "rule_files": [str(RULES)],
                    "scrape_configs": [
                        {"job_name": "flagtui", "static_configs": [{"targets": [target]}]}
                    ],
                    "alerting": {
                        "alertmanagers": [
                            {"static_configs": [{"targets": [f"127.0.0.1:{am_port}"]}]}
                        ]
                    },
                }
            )
        )
        self._start(
            "prometheus",
            tools["prometheus"],
            f"--config.file={folder / 'prometheus.yml'}",
            f"--storage.tsdb.path={folder / 'prom-data'}",
            f"--web.listen-address=127.0.0.1:{prom_port}",
        )
        self.prometheus = f"http://127.0.0.1:{prom_port}"

    def _start(self, name: str, *argv: str) -> None:
        log = (self.logs / f"{name}.log").open("wb")
        self.procs.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT))

    def query(self, promql: str) -> list[dict[str, Any]]:
        try:
            answer = httpx.get(f"{self.prometheus}/api/v1/query", params={"query": promql})
        except httpx.TransportError:
            return []  # not listening yet
        return answer.json()["data"]["result"] if answer.status_code == 200 else []

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

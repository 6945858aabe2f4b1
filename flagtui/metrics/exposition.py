"""Where the metrics go: an HTTP address Prometheus scrapes (`--metrics`), or a node_exporter
textfile (`--textfile`), written after each poll to a file beside it and renamed over it, so a
scrape never reads half a file.

`--metrics` listens on loopback unless told otherwise: `PORT` alone (or `:PORT`, or
`localhost:PORT`) is 127.0.0.1; another address must be written as an IP address (`0.0.0.0`,
`192.0.2.7`, `[::]`), which is then used as given and said in the log. A host name is refused:
what it resolves to is not written on the command line.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server, write_to_textfile

from flagtui.api.health import Health
from flagtui.archive.collector import PollResult
from flagtui.archive.store import Archive
from flagtui.metrics.families import CollectorMetrics, PollRecord

LOOPBACK = "127.0.0.1"


class MetricsOptionError(ValueError):
    """An option's value refused, in a sentence naming the option."""


def listen_address(text: str) -> tuple[str, int]:
    """(host, port) of `--metrics [HOST:]PORT`; MetricsOptionError says what is wrong."""
    host, colon, port_text = text.strip().rpartition(":")
    if not colon:
        host, port_text = "", text.strip()
    host = host.removeprefix("[").removesuffix("]")
    if not (port_text.isascii() and port_text.isdigit() and int(port_text) <= 65535):
        raise MetricsOptionError(f"--metrics: a port from 0 to 65535 (it is {port_text!r})")
    if host in ("", "localhost"):
        return LOOPBACK, int(port_text)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise MetricsOptionError(
            f"--metrics: the address to listen on must be an IP address ({host!r} is a name:"
            f" use 127.0.0.1, or write a non-loopback address such as 0.0.0.0 as it is)"
        ) from None
    return host, int(port_text)


def textfile_path(text: str) -> Path:
    path = Path(text)
    if path.suffix != ".prom":
        raise MetricsOptionError(
            f"--textfile: node_exporter reads only files ending in .prom (it is {text!r})"
        )
    if not path.parent.is_dir():
        raise MetricsOptionError(f"--textfile: the folder {str(path.parent)!r} does not exist")
    return path


class Metrics:
    """The collector's metrics, served or written; the collector's `watch`."""

    def __init__(
        self,
        archive: Archive,
        server_url: str,
        health: Health,
        *,
        address: tuple[str, int] | None,
        textfile: Path | None,
        log: Callable[[str], None],
    ) -> None:
        self.polls = PollRecord()
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(CollectorMetrics(archive, server_url, self.polls, health))
        self.textfile = textfile
        self.log = log
        self._server: WSGIServer | None = None
        if address is not None:
            self._serve(*address)
        self._write()

    def _serve(self, host: str, port: int) -> None:
        try:
            self._server, _ = start_http_server(port, host, registry=self.registry)
        except OSError as exc:
            raise MetricsOptionError(
                f"--metrics: cannot listen on {host}:{port}: {exc.strerror or exc}"
            ) from None
        bound = self._server.server_port
        shown = f"[{host}]" if ":" in host else host
        scope = "loopback only" if ipaddress.ip_address(host).is_loopback else "NOT loopback"
        self.log(f"metrics at http://{shown}:{bound}/metrics ({scope})")

    def _write(self) -> None:
        """The textfile replaced; a failure is said (the previous file stays whole, and its
        last poll's time grows old, which is what a rule sees) and collecting goes on."""
        if self.textfile is None:
            return
        try:
            write_to_textfile(str(self.textfile), self.registry)
        except Exception as exc:  # the archive's read or the file's write
            self.log(f"metrics not written to {self.textfile}: {exc}")

    def polled(self, result: PollResult) -> None:
        self.polls.polled(result)
        self._write()

    def poll_failed(self, error: Exception) -> None:
        self.polls.poll_failed(error)
        self._write()

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

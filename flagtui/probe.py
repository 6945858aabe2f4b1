"""An integration's target tried from this machine, step by step, each with its time: the
name (DNS), a TCP connection, the TLS handshake and its certificate, and the HTTP status of a
HEAD request. For `flagtui integration probe` and the delivery detail's `i`.

What it tells apart is what Unleash says alike ("status code: 500" for a refused connection, a
name that does not resolve or a certificate it does not trust). It is seen from here: Unleash's
server has its own DNS, firewall, proxy and trust store, and may see the network otherwise.

The payload is never sent. The request is a HEAD, no body: a webhook receiver acts on what is
POSTed to it (most answer HEAD with 405 or 404, which still proves the path to them), where an
empty POST, or a GET on some endpoints, could be taken as a message. DNS, TCP and TLS are done
with the standard library's socket and ssl (httpx reports neither the name's addresses, nor
the steps apart, nor why a certificate is refused); the HTTP request is httpx's, the one HTTP
stack, on a client of its own: the profile's token never goes to an integration's target.

The steps hold the URL in full; `report` is what is shown of them, its secret parts masked
(`masking.mask_url`: userinfo, path, query values) in every text.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from flagtui import __version__
from flagtui.value import Value

if TYPE_CHECKING:
    from flagtui.api import AdminClient

TIMEOUT = 10.0  # seconds, each step
SERVER_MASK = "*****"  # what Unleash lists in place of a sensitive parameter (a webhook's URL)
# Providers that post to a fixed endpoint when no URL is configured.
PROVIDER_ENDPOINTS = {
    "datadog": "https://api.datadoghq.com/api/v1/events",
    "slack-app": "https://slack.com/api/chat.postMessage",
}
SEEN_FROM = (
    "seen from this machine: Unleash's server may see the network differently"
    " (its own DNS, firewall, proxy and trust store)"
)


class Step(Value):
    """One step: `ok` True or False, None when it was not tried (`said` says why)."""

    def __init__(self, name: str, ok: bool | None, seconds: float | None, said: str) -> None:
        self.name = name
        self.ok = ok
        self.seconds = seconds
        self.said = said

    def record(self) -> dict[str, Any]:
        result = "skipped" if self.ok is None else "ok" if self.ok else "FAILED"
        ms = None if self.seconds is None else round(self.seconds * 1000, 1)
        return {"step": self.name, "result": result, "ms": ms, "detail": self.said}


class NoTarget(Exception):
    """Nothing says where the integration sends its deliveries."""


async def integration_target(
    client: AdminClient, addon_id: int, seen: Mapping[str, Any] | None = None
) -> tuple[str, str, str]:
    """(its label, URL, where the URL was read) of an integration on the server; the server's
    404 for an unknown id, `NoTarget` when nothing names its URL. `seen`: the details of the
    delivery the admin is looking at, read before its newest's."""
    # Here, not at the top: it loads pydantic
    from flagtui.triage.records import IntegrationRef

    newest = await client.integrations.events(addon_id, limit=1)  # an unknown id: its 404
    addon = next((a for a in (await client.integrations.list()).addons if a.id == addon_id), None)
    if addon is None:
        raise NoTarget(f"integration {addon_id} is not in the server's list")
    label = IntegrationRef.of(addon).label
    details = [d for d in (seen, *(d.details for d in newest)) if d]
    found = target(addon.provider, addon.parameters, details)
    if found is None:
        raise NoTarget(
            f"{label}: no URL to probe (the server lists its URL masked, and no delivery of it"
            " names one)"
        )
    return label, *found


def report(label: str, url: str, source: str, steps: list[Step]) -> dict[str, Any]:
    """What is shown of a probe, as JSON: the URL and every text with their secrets masked."""
    # Here, not at the top: it loads pydantic (masking reads the client's models)
    from flagtui.masking import mask_url, mask_urls

    shown = mask_url(url)
    records = [step.record() for step in steps]
    for record in records:
        record["detail"] = mask_urls(record["detail"].replace(url, shown))
    return {
        "integration": label,
        "target": shown,
        "targetFrom": source,
        "reached": any(step.name == "http" and step.ok for step in steps),
        "steps": records,
        "seenFrom": SEEN_FROM,
    }


def target(
    provider: str, parameters: Mapping[str, Any] | None, details: Sequence[Mapping[str, Any]]
) -> tuple[str, str] | None:
    """(URL, where it was read) of an integration: its `url` parameter when the server lists it
    (not masked), else the URL its newest delivery names (real Unleash records where it posted),
    else its provider's fixed endpoint; None when none says one."""
    url = (parameters or {}).get("url")
    if isinstance(url, str) and url and SERVER_MASK not in url:
        return url, "its url parameter"
    for detail in details:
        url = detail.get("url")
        if isinstance(url, str) and url and SERVER_MASK not in url:
            return url, "the URL a delivery of it was sent to"
    if provider in PROVIDER_ENDPOINTS:
        return PROVIDER_ENDPOINTS[provider], f"the {provider} endpoint"
    return None


async def probe(url: str, *, timeout: float = TIMEOUT) -> list[Step]:
    """Each step in turn; a step that fails leaves the next ones not tried."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), parts.hostname
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        port = None
    if scheme not in ("http", "https") or not host or port is None:
        return [Step("url", False, None, "not an http or https URL with a host and port")]
    dns, addresses = await _resolve(host, port, timeout)
    steps = [dns]
    sock: socket.socket | None = None
    if addresses:
        tcp, sock = await asyncio.to_thread(_connect, addresses, port, timeout)
        steps.append(tcp)
    if sock is not None and scheme == "https":
        steps.append(await asyncio.to_thread(_handshake, sock, host, timeout))
    elif sock is not None:
        sock.close()
        steps.append(Step("tls", None, None, "http: no TLS"))
    if all(step.ok is not False for step in steps):
        steps.append(await _head(url, timeout))
    return _with_skipped(steps)


def _with_skipped(steps: list[Step]) -> list[Step]:
    named = {step.name for step in steps}
    for name in ("dns", "tcp", "tls", "http"):
        if name not in named:
            steps.append(Step(name, None, None, "not tried: a step before it failed"))
    return steps


async def _resolve(host: str, port: int, timeout: float) -> tuple[Step, list[Any]]:
    started = time.perf_counter()
    loop = asyncio.get_running_loop()
    try:
        found = await asyncio.wait_for(
            loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout
        )
    except TimeoutError:
        said = f"no answer in {timeout:g} s"
        return Step("dns", False, time.perf_counter() - started, said), []
    except socket.gaierror as exc:
        said = f"{host} does not resolve ({exc.strerror})"
        return Step("dns", False, time.perf_counter() - started, said), []
    addresses = ", ".join(dict.fromkeys(str(info[4][0]) for info in found))
    return Step("dns", True, time.perf_counter() - started, addresses), list(found)


def _connect(addresses: list[Any], port: int, timeout: float) -> tuple[Step, socket.socket | None]:
    """The first address that accepts a connection; the last failure when none does."""
    started = time.perf_counter()
    said = "no address"
    for family, kind, proto, _, address in addresses:
        sock = socket.socket(family, kind, proto)
        sock.settimeout(timeout)
        where = f"{address[0]}:{port}"
        try:
            sock.connect(address)
        except ConnectionRefusedError:
            said = f"connection refused ({where})"
        except TimeoutError:
            said = f"no answer in {timeout:g} s ({where})"
        except OSError as exc:
            said = f"{exc.strerror or exc} ({where})"
        else:
            return Step("tcp", True, time.perf_counter() - started, f"connected to {where}"), sock
        sock.close()
    return Step("tcp", False, time.perf_counter() - started, said), None


def _handshake(sock: socket.socket, host: str, timeout: float) -> Step:
    started = time.perf_counter()
    context = ssl.create_default_context()
    try:
        with context.wrap_socket(sock, server_hostname=host) as tls:
            cert = tls.getpeercert() or {}
            version = tls.version()
    except ssl.SSLCertVerificationError as exc:
        said = f"certificate not trusted: {exc.verify_message or exc.reason}"
        return Step("tls", False, time.perf_counter() - started, said)
    except (ssl.SSLError, OSError) as exc:
        said = f"TLS handshake failed: {getattr(exc, 'reason', None) or exc}"
        return Step("tls", False, time.perf_counter() - started, said)
    finally:
        sock.close()
    subject = _name(cert.get("subject"))
    issuer = _name(cert.get("issuer"))
    said = f"{version}, certificate trusted: {subject} by {issuer}, until {cert.get('notAfter')}"
    return Step("tls", True, time.perf_counter() - started, said)


def _name(fields: Any) -> str:
    """A certificate's subject or issuer: its common name, else its organisation."""
    values = {key: value for rdn in fields or () for key, value in rdn}
    return str(values.get("commonName") or values.get("organizationName") or "?")


async def _head(url: str, timeout: float) -> Step:
    # Here, not at the top: the TUI's start imports nothing of httpx before it needs it
    import httpx

    started = time.perf_counter()
    headers = {"User-Agent": f"flagtui/{__version__} (integration probe)"}
    try:
        async with httpx.AsyncClient(timeout=timeout, headers=headers) as http:
            answer = await http.head(url)
    except httpx.HTTPError as exc:
        said = f"no HTTP answer: {type(exc).__name__}: {exc}"
        return Step("http", False, time.perf_counter() - started, said)
    said = f"HEAD answered {answer.status_code} {answer.reason_phrase}".rstrip()
    return Step("http", True, time.perf_counter() - started, said)

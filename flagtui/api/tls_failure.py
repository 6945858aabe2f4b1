"""What a failed TLS handshake says. A certificate whose chain is trusted but made out for other
names is a host-name mismatch, not a missing ca_bundle: the sentence names the host asked for and
the names the certificate holds (read by a second handshake that checks the chain but not the
name; nothing is sent on it)."""

from __future__ import annotations

import asyncio
import ssl

import httpx

from flagtui.api.connection import tls_context

# OpenSSL's verify codes of a certificate made out for other names (X509_V_ERR_*_MISMATCH).
NAME_MISMATCH = {62: "host name", 64: "IP address"}
SHOWN_NAMES = 5
NAMES_WAIT_S = 5.0


def is_tls_failure(exc: httpx.ConnectError) -> bool:
    return (
        _ssl_error(exc) is not None or "CERTIFICATE_VERIFY_FAILED" in str(exc) or "SSL" in str(exc)
    )


async def tls_message(exc: httpx.ConnectError, url: httpx.URL, verify: bool | str) -> str:
    failure = _ssl_error(exc)
    code = getattr(failure, "verify_code", None)
    if code in NAME_MISMATCH:
        names = await certificate_names(url.host, url.port or 443, verify)
        holds = f"it is for {', '.join(names)}" if names else "its names could not be read"
        return (
            f"the server's TLS certificate does not match the {NAME_MISMATCH[code]} {url.host}"
            f" ({holds}): use a URL with a name the certificate holds, or a certificate made"
            f" out for {url.host}"
        )
    text = str(exc)
    if "CERTIFICATE_VERIFY_FAILED" in text:
        return "the server's TLS certificate could not be verified (set ca_bundle in the profile)"
    return f"TLS handshake failed ({text[:120]})"


async def certificate_names(host: str, port: int, verify: bool | str) -> list[str]:
    """The names the server's certificate is made out for (its subjectAltName, else its common
    name), its chain checked as the client checks it; [] when they cannot be read."""
    context = tls_context(verify)
    context.check_hostname = False
    try:
        async with asyncio.timeout(NAMES_WAIT_S):
            _, writer = await asyncio.open_connection(host, port, ssl=context)
    except (OSError, TimeoutError, ssl.SSLError):
        return []
    try:
        cert = writer.get_extra_info("peercert") or {}
    finally:
        writer.close()
    names = [str(value) for _, value in cert.get("subjectAltName", ())]
    if not names:
        names = [str(v) for rdn in cert.get("subject", ()) for k, v in rdn if k == "commonName"]
    shown = [name[:64] for name in names[:SHOWN_NAMES]]
    return [*shown, f"{len(names) - SHOWN_NAMES} more"] if len(names) > SHOWN_NAMES else shown


def _ssl_error(exc: BaseException) -> ssl.SSLError | None:
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ssl.SSLError):
            return cause
        cause = cause.__cause__ or cause.__context__
    return None

"""What every request of the client carries and trusts: its headers (the token) and the
certificates its transport (`transport.py`) checks.

The certificates, by httpx's own rules for `verify=True` (the client's before this module): the
profile's ca_bundle, else SSL_CERT_FILE, else SSL_CERT_DIR, else certifi's bundle; a profile
with verify_tls off checks nothing (it says so wherever it is used)."""

from __future__ import annotations

import os
import ssl

import certifi

from flagtui import __version__


def client_headers(token: str) -> dict[str, str]:
    return {"Authorization": token, "User-Agent": f"flagtui/{__version__}"}


def tls_context(verify: bool | str) -> ssl.SSLContext:
    """`verify`: the profile's ca_bundle path, else its verify_tls."""
    if isinstance(verify, str):
        return ssl.create_default_context(cafile=verify)
    if not verify:
        unchecked = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        unchecked.check_hostname = False
        unchecked.verify_mode = ssl.CERT_NONE
        return unchecked
    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])

    return ssl.create_default_context(cafile=certifi.where())

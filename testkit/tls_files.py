"""A self-signed certificate for 127.0.0.1 and its key, made by the openssl command: the
bench's HTTPS delay proxy and the tests' HTTPS servers serve it; flagtui trusts it as a
profile's ca_bundle (or through SSL_CERT_FILE)."""

from __future__ import annotations

import subprocess
from pathlib import Path


class TlsFiles:
    def __init__(self, folder: Path) -> None:
        self.cert, self.key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
             "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", str(self.key), "-out", str(self.cert)],
            check=True, capture_output=True,
        )  # fmt: skip

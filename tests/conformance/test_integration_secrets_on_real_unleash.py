"""`flagtui integration create --dry-run` on a real Unleash, with its providers' own definitions
(8.2.0's webhook marks url, authorization and customHeaders sensitive, bodyTemplate not): the
values from stdin, a private file and the command line shown masked in every format, the
secret given on the command line warned of, and nothing but reads sent (no integration made)."""

from __future__ import annotations

import io
import json
import uuid

import httpx
import pytest

from flagtui.cli import main
from flagtui.masking import MASK

pytestmark = pytest.mark.unleash


def test_a_dry_run_masks_every_secret_by_the_real_providers_definition(
    real_unleash, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("FLAGTUI_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("FLAGTUI_CREDENTIALS", str(tmp_path / "creds" / "tokens.toml"))
    secret = f"s3cret-{uuid.uuid4().hex}"
    marker = f"flagtui dry run {uuid.uuid4().hex[:12]}"
    headers = tmp_path / "headers.json"
    headers.write_text(json.dumps({"X-Token": secret}) + "\n")
    headers.chmod(0o600)
    with httpx.Client(
        base_url=real_unleash.url, headers={"Authorization": real_unleash.token}, timeout=30
    ) as http:
        webhook = next(p for p in http.get("/api/admin/addons").json()["providers"]
                       if p["name"] == "webhook")  # fmt: skip
        sensitive = {p["name"] for p in webhook["parameters"] if p["sensitive"]}
        for output in ("json", "table"):
            monkeypatch.setattr("sys.stdin", io.StringIO(f"https://hooks.example.test/{secret}\n"))
            capsys.readouterr()
            code = main([
                "integration", "create", "webhook", "--param-stdin", "url",
                "--param-file", f"customHeaders={headers}",
                "--param", f"authorization=Bearer {secret}",
                "--param", f'bodyTemplate={{"token": "{secret}"}}',
                "--description", marker, "--dry-run", "-o", output,
            ])  # fmt: skip
            said = capsys.readouterr()
            assert code == 0, said.err
            assert secret not in said.out + said.err
            assert "--param authorization is a secret given on the command line" in said.err
            if output == "json":
                shown = json.loads(said.out)["body"]["parameters"]
                assert shown == dict.fromkeys(
                    ("url", "customHeaders", "authorization", "bodyTemplate"), MASK
                )
        made = [a for a in http.get("/api/admin/addons").json()["addons"]
                if a.get("description") == marker]  # fmt: skip
        assert made == []
    assert {"url", "authorization"} <= sensitive  # the warning's ground, on this server

"""The commands over HTTPS (a loopback gateway in front of the sandbox, serving a certificate
made out for 127.0.0.1): a trusted certificate for another name is said to be a host-name
mismatch, naming both; a profile that verifies nothing is warned of once per command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gateway import Gateway

from testkit.tls_files import TlsFiles


@pytest.fixture
def https(sandbox, tmp_path: Path):
    tls = TlsFiles(tmp_path)
    with Gateway(sandbox.url, tls=tls) as gateway:
        yield gateway, tls


def profile(cli_env: Path, monkeypatch, url: str, setting: str) -> None:
    (cli_env / "config.toml").write_text(f'[profiles.p]\nurl = "{url}"\n{setting}\n')
    monkeypatch.setenv("UNLEASH_URL", url)  # the token of the environment is this profile's


def test_the_right_ca_bundle_but_another_host_name_is_said_to_be_a_name_mismatch(
    run, cli_env, https, monkeypatch
):
    gateway, tls = https
    port = gateway.url.rsplit(":", 1)[1]
    profile(cli_env, monkeypatch, f"https://127.0.0.1:{port}", f'ca_bundle = "{tls.cert}"')
    assert run("type", "list", "-P", "p").code == 0  # the bundle is the right one

    profile(cli_env, monkeypatch, f"https://localhost:{port}", f'ca_bundle = "{tls.cert}"')
    result = run("type", "list", "-P", "p")
    assert result.code != 0
    error = result.error
    assert error["name"] == "TLSError"
    assert error["message"] == (
        "the server's TLS certificate does not match the host name localhost (it is for"
        " 127.0.0.1): use a URL with a name the certificate holds, or a certificate made out"
        " for localhost"
    )


def test_an_untrusted_certificate_still_says_to_set_ca_bundle(run, cli_env, https, monkeypatch):
    gateway, _ = https
    profile(cli_env, monkeypatch, gateway.url, "")
    result = run("type", "list", "-P", "p")
    assert result.code != 0
    assert "could not be verified (set ca_bundle in the profile)" in result.error["message"]


@pytest.mark.parametrize("output", ["json", "table"])
def test_verify_tls_off_is_warned_of_once_per_command(run, cli_env, https, monkeypatch, output):
    gateway, _ = https
    profile(cli_env, monkeypatch, gateway.url, "verify_tls = false")
    result = run("type", "list", "-P", "p", "-o", output)
    assert result.code == 0, result.err
    said = result.err.strip().splitlines()
    assert len(said) == 1, result.err
    expected = (
        "profile p does not verify the server's TLS certificate (verify_tls = false): anyone on"
        " the way can read its token and answer for the server; set ca_bundle instead"
    )
    if output == "json":
        assert json.loads(said[0]) == {"warning": {"kind": "tls-unverified", "message": expected}}
    else:
        assert said[0] == f"flagtui: warning: {expected}"

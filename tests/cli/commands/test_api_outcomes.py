"""`flagtui api` says a request's outcome as every command does, through the one transport:
over HTTPS with the profile's ca_bundle (and refused without it); a write a gateway answered 504
after the origin applied it is "outcome unknown" (exit 7) and is not sent again; a read a
gateway answered 502 is asked again, then said (exit 6); HEAD prints only headers; the
environment's proxy carries every request."""

from __future__ import annotations

import uuid
from pathlib import Path

from gateway import Gateway, gateway_page

from testkit.tls_files import TlsFiles

from ..conftest import event_count
from .helpers import PROJECT, newest_event

FEATURES = f"/api/admin/projects/{PROJECT}/features"


def profile(cli_env: Path, monkeypatch, url: str, setting: str = "") -> None:
    (cli_env / "config.toml").write_text(f'[profiles.p]\nurl = "{url}"\n{setting}\n')
    monkeypatch.setenv("UNLEASH_URL", url)  # the token of the environment is this profile's


def test_https_uses_the_profiles_ca_bundle(run, cli_env, sandbox, tmp_path, monkeypatch):
    tls = TlsFiles(tmp_path)
    with Gateway(sandbox.url, tls=tls) as gateway:
        profile(cli_env, monkeypatch, gateway.url)
        untrusted = run("api", "GET", "/api/admin/projects", "-P", "p", "-o", "json")
        assert untrusted.code == 6 and untrusted.error["kind"] == "tls"
        assert gateway.forwarded == []
        profile(cli_env, monkeypatch, gateway.url, f'ca_bundle = "{tls.cert}"')
        trusted = run("api", "GET", "/api/admin/projects", "-P", "p")
    assert trusted.code == 0, trusted.err
    assert trusted.json["projects"]


def test_a_write_answered_by_a_gateway_is_outcome_unknown_and_sent_once(
    run, server, sandbox, monkeypatch
):
    name = f"api-504-{uuid.uuid4().hex[:8]}"
    with Gateway(sandbox.url, answer=gateway_page(504), method="POST") as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("api", "POST", FEATURES, "-f", f"name={name}", "-o", "json")
    assert result.code == 7, result.err
    assert result.error["kind"] == "outcome-unknown"
    assert gateway.count("POST") == 1
    assert newest_event(server, name)["type"] == "feature-created"  # the origin applied it


def test_a_read_answered_502_is_asked_again_then_said(run, server, sandbox, monkeypatch):
    before = event_count(server)
    with Gateway(sandbox.url, answer=gateway_page(502), method="GET") as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("api", "GET", "/api/admin/projects", "-o", "json")
    assert result.code == 6 and result.error["status"] == 502
    assert len(gateway.received) == 3  # the first try and the transport's two retries
    assert event_count(server) == before


def test_head_prints_only_headers_and_those_only_with_include(run):
    quiet = run("api", "HEAD", "/api/admin/projects")
    assert (quiet.code, quiet.out) == (0, "")
    shown = run("api", "HEAD", "/api/admin/projects", "-i")
    assert shown.code == 0, shown.err
    assert shown.out.splitlines()[0] == "HTTP/1.1 200 OK"
    assert shown.out.endswith("\n\n")


def test_requests_go_through_the_environments_proxy(run, server, sandbox, monkeypatch):
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    name = f"api-proxied-{uuid.uuid4().hex[:8]}"
    with Gateway(sandbox.url) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        result = run("api", "POST", FEATURES, "-f", f"name={name}")
    assert result.code == 0, result.err
    assert [(r.method, r.path) for r in proxy.received] == [("POST", FEATURES)]
    assert newest_event(server, name)["type"] == "feature-created"

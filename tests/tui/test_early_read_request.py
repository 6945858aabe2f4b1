"""The early read's search (`flagtui/api/early_search.py`, the standard library's HTTP, sent
before the models are imported) is the admin client's own, as the server sees both: the path,
query and headers, over HTTP and HTTPS. The token leaves only for a certificate the client
trusts, and not at all where the client would go another way (a proxy in the environment).
Every early read forks in a process of its own, never in the test process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from early_reads import early_read, remembering
from gateway import Gateway, Received
from hostile_pty import flagtui_env

from flagtui.api import AdminClient
from flagtui.api.feature_query import SEARCH_PATH, FeatureQuery
from flagtui.tui.feature_rows import PAGE_SIZE, start_filters
from testkit.tls_files import TlsFiles

from .row_cache_state import first_project, server_first_page

# send_search on its own: which of the client's costly libraries were loaded when the search
# left, and the names of the page it answered.
SEND = """
import json, sys
from flagtui.api.early_search import send_search
from flagtui.api.feature_query import SEARCH_PATH, FeatureQuery

url, token, project = sys.argv[1:]
answer = send_search(url, token, FeatureQuery(project=project), verify=True, timeout=10)
loaded = sorted(m for m in ("asyncio", "httpx", "pydantic", "rich") if m in sys.modules)
print(json.dumps({"loaded_at_send": loaded, "names": [f.name for f in answer().features]}))
"""


async def clients_search(url: str, token: str, project: str, verify: bool | str) -> None:
    """The app's own first search of the area, through the admin client."""
    async with AdminClient(url, token, profile="t", verify=verify) as client:
        await client.features.search(
            FeatureQuery(**start_filters(project), offset=0, limit=PAGE_SIZE)
        )


def searches(server: Gateway) -> list[Received]:
    return [r for r in server.received if r.path.endswith(SEARCH_PATH)]


def as_sent(request: Received) -> tuple[Any, ...]:
    """What the server acts on: no Accept or Accept-Encoding (either way, the same JSON)."""
    kept = ("authorization", "user-agent", "host")
    return request.method, request.path, request.query, {k: request.headers[k] for k in kept}


async def test_the_early_read_sends_the_clients_own_search(sandbox: Any, tmp_path: Path) -> None:
    project = await first_project(sandbox)
    remembering(tmp_path, project)
    with Gateway(sandbox.url) as server:
        assert early_read(flagtui_env(tmp_path, sandbox.admin_token, server.url)) is True
        await clients_search(server.url, sandbox.admin_token, project, True)
        early, own = searches(server)
    assert as_sent(early) == as_sent(own)
    assert early.query["project"] == [f"IS:{project}"] and early.query["limit"] == ["50"]


async def test_the_search_leaves_before_the_clients_libraries_load(sandbox: Any) -> None:
    project = await first_project(sandbox)
    argv = [sys.executable, "-c", SEND, sandbox.url, sandbox.admin_token, project]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True)
    said = json.loads(done.stdout)
    assert said["loaded_at_send"] == []
    assert said["names"] == server_first_page(sandbox, project)[: len(said["names"])]


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "https_proxy", "ALL_PROXY"])
async def test_a_proxy_in_the_environment_means_no_early_read(
    sandbox: Any, tmp_path: Path, variable: str
) -> None:
    """httpx would send through the proxy: the child does not guess how, it sends nothing."""
    project = await first_project(sandbox)
    remembering(tmp_path, project)
    with Gateway(sandbox.url) as server:
        env = flagtui_env(tmp_path, sandbox.admin_token, server.url)
        env[variable] = "http://127.0.0.1:9"
        assert early_read(env) is False
        assert server.received == []


@pytest.mark.parametrize("trust", ["ca_bundle", "SSL_CERT_FILE", "nothing", "a missing ca_bundle"])
async def test_over_https_the_token_leaves_only_for_a_certificate_the_client_trusts(
    sandbox: Any, tmp_path: Path, trust: str
) -> None:
    """A self-signed certificate: trusted as the profile's ca_bundle or through SSL_CERT_FILE
    (httpx's rule, kept by the client), the early read sends the client's own search; trusted
    by nothing, the handshake fails and the server sees no request at all; nor does it when
    the profile's ca_bundle is missing (the app's opening says why)."""
    project = await first_project(sandbox)
    remembering(tmp_path, project, profile="tls")
    tls = TlsFiles(tmp_path)
    with Gateway(sandbox.url, tls=tls) as server:
        config = tmp_path / "config" / "flagtui" / "config.toml"
        config.parent.mkdir(parents=True)
        named = {"ca_bundle": tls.cert, "a missing ca_bundle": tmp_path / "missing.pem"}
        bundle = f'ca_bundle = "{named[trust]}"\n' if trust in named else ""
        config.write_text(
            f'default_profile = "tls"\n[profiles.tls]\nurl = "{server.url}"\n{bundle}'
        )
        env = flagtui_env(tmp_path, sandbox.admin_token)  # the token for any profile's server
        if trust == "SSL_CERT_FILE":
            env["SSL_CERT_FILE"] = str(tls.cert)
        saved = early_read(env)
        if trust in ("nothing", "a missing ca_bundle"):
            assert saved is False and server.received == []
            return
        assert saved is True
        await clients_search(server.url, sandbox.admin_token, project, str(tls.cert))
        early, own = searches(server)
    assert as_sent(early) == as_sent(own)


@pytest.mark.parametrize("project", ["", 42, ["default"]])
async def test_a_remembered_project_that_is_no_name_is_not_read_early(
    sandbox: Any, tmp_path: Path, project: Any
) -> None:
    """A hand-edited state file: "" would have asked for every project's flags, shown for a
    moment as the project's page; the app picks a project of its own then."""
    remembering(tmp_path, project)
    with Gateway(sandbox.url) as server:
        assert early_read(flagtui_env(tmp_path, sandbox.admin_token, server.url)) is False
        assert server.received == []

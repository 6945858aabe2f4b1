"""`flagtui api --paginate` over more pages than a server's rate limit allows (real Unleash 8.2:
15 feature searches a minute) waits for it, saying so, instead of ending half-way. A small
loopback server stands in for an Unleash with 300 flags; its third search is refused with 429
and Retry-After: 1, as real Unleash refuses a spent budget, so the wait happens however slow
the machine is. Without --paginate the 429 is the answer (exit 6)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest

from ..stand_in import JsonAnswers, _QuietServer

FLAGS = [{"name": f"flag-{n:03}", "project": "default"} for n in range(300)]


class _Limited(JsonAnswers):
    searches = 0  # per server: a fresh handler class per fixture
    refuse = 3

    def do_GET(self) -> None:
        type(self).searches += 1
        if type(self).searches == self.refuse:
            body = b"Too many requests, please try again later."
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        query = parse_qs(urlparse(self.path).query)
        offset, limit = int(query.get("offset", ["0"])[0]), int(query["limit"][0])
        page = {"features": FLAGS[offset : offset + limit], "total": len(FLAGS)}
        self._answer(200, json.dumps(page).encode())


@pytest.fixture
def limited(cli_env, monkeypatch) -> Iterator[type[_Limited]]:
    handler = type("Limited", (_Limited,), {})
    server = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("UNLEASH_URL", f"http://127.0.0.1:{server.server_address[1]}")
    yield handler
    server.shutdown()
    server.server_close()


def test_paginate_waits_for_a_rate_limit_and_gets_every_page(run, limited):
    result = run("api", "GET", "/api/admin/search/features", "-F", "limit=100", "--paginate")
    assert result.code == 0, result.err
    assert [f["name"] for f in result.json["features"]] == [f["name"] for f in FLAGS]
    assert result.line == (
        "flagtui: api: the server limits this route (429); waiting 1 s for offset 200"
    )
    assert limited.searches == 4  # 3 pages, one of them asked twice


def test_without_paginate_a_429_is_the_answer(run, limited):
    limited.refuse = 1
    result = run("api", "GET", "/api/admin/search/features", "-F", "limit=100", "-o", "json")
    assert result.code == 6
    assert result.out == "Too many requests, please try again later.\n"
    assert result.error["kind"] == "rate-limited"

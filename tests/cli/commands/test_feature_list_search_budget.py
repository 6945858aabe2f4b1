"""`feature list` over more pages than real Unleash's feature-search budget (15 a minute) waits
for the budget, saying so, instead of ending half-way. A small loopback server stands in for a
real Unleash with 300 flags (3 pages); its third search is refused with 429 and Retry-After: 1,
as real Unleash refuses a spent budget, so the wait happens however slow the machine is."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest

from ..stand_in import UI_CONFIG, JsonAnswers, _QuietServer

FLAGS = [{"name": f"flag-{n:03}", "project": "default", "type": "release"} for n in range(300)]


class _ManyFlags(JsonAnswers):
    searches = 0  # per server: a fresh handler class per fixture

    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = parse_qs(url.query)
        if url.path == "/api/admin/ui-config":
            self._answer(200, UI_CONFIG)
            return
        type(self).searches += 1
        if type(self).searches == 3:
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            offset, limit = int(query["offset"][0]), int(query["limit"][0])
            page = FLAGS[offset : offset + limit]
            self._answer(200, json.dumps({"features": page, "total": len(FLAGS)}).encode())


@pytest.fixture
def many_flags(cli_env, monkeypatch) -> Iterator[None]:
    server = _QuietServer(("127.0.0.1", 0), type("ManyFlags", (_ManyFlags,), {}))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("UNLEASH_URL", f"http://127.0.0.1:{server.server_address[1]}")
    yield
    server.shutdown()
    server.server_close()


def test_a_listing_longer_than_the_search_budget_waits_for_it(run, many_flags):
    """Before the fix: exit 6 after 2 pages, 'flagtui holds back'."""
    result = run("feature", "list", "-o", "json")
    assert result.code == 0, result.err
    assert [f["name"] for f in json.loads(result.out)] == [f["name"] for f in FLAGS]
    assert "allows 15 feature searches a minute; waiting" in result.err

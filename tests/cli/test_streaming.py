"""`-o jsonl` streams: each page's records are printed as the page comes, so a long listing
shows its first records at once and a failure half-way keeps what was read. The failure is
made by a small loopback server (page 2 of a feature search answering 500): a real server
does not fail on demand. `-o json` prints one document, so nothing before such a failure."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest

from .stand_in import UI_CONFIG, JsonAnswers, _QuietServer

FIRST_PAGE = [{"name": f"flag-{n:03}", "project": "default", "type": "release"} for n in range(100)]


class _SecondPageFails(JsonAnswers):
    def do_GET(self) -> None:
        url = urlparse(self.path)
        offset = int(parse_qs(url.query).get("offset", ["0"])[0])
        if url.path == "/api/admin/ui-config":
            self._answer(200, UI_CONFIG)
        elif url.path == "/api/admin/search/features" and offset == 0:
            self._answer(200, json.dumps({"features": FIRST_PAGE, "total": 150}).encode())
        else:
            self._answer(500, b'{"name": "InternalError", "message": "page 2 failed"}')


@pytest.fixture
def second_page_fails(cli_env, monkeypatch) -> Iterator[None]:
    server = _QuietServer(("127.0.0.1", 0), _SecondPageFails)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("UNLEASH_URL", f"http://127.0.0.1:{server.server_address[1]}")
    yield
    server.shutdown()
    server.server_close()


def test_jsonl_prints_each_page_as_it_comes(run, second_page_fails):
    result = run("feature", "list", "-o", "jsonl")
    assert result.code == 6
    assert [json.loads(line)["name"] for line in result.out.splitlines()] == [
        f["name"] for f in FIRST_PAGE
    ]
    assert result.error["message"] == "page 2 failed"


def test_json_prints_one_document_or_nothing(run, second_page_fails):
    result = run("feature", "list", "-o", "json")
    assert (result.code, result.out) == (6, "")
    assert result.error["path"] == "/api/admin/search/features"

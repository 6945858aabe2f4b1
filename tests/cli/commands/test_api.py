"""`flagtui api` on the sandbox: a GET (golden), fields as a GET's query and as a POST's JSON
body (the flag and its event read back), --input from a file and from standard input,
--paginate over the event search (every page asked, as one list, at the gateway), and an
answer that is not a success (printed, then its exit code)."""

from __future__ import annotations

import io
import json
import sys
import uuid

from gateway import Gateway

from .helpers import PROJECT, assert_piped_golden, newest_event

FLAG = "admin-async-emails"  # a live default-project flag of the demo
FEATURE = f"/api/admin/projects/{PROJECT}/features/{FLAG}"


def test_a_get_prints_the_servers_answer_as_it_came_when_piped(run, server):
    assert_piped_golden(run, "api-projects", "api", "GET", "/api/admin/projects")
    # Nothing there to mask: the bytes as sent. A path without its `/`, any case of METHOD.
    result = run("api", "get", "health")
    assert result.code == 0, result.err
    assert result.out.rstrip("\n") == server.get("/health").text


def test_a_gets_fields_are_its_query(run, sandbox, monkeypatch):
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run(
            "api", "GET", "/api/admin/search/events?type=IS:feature-created",
            "-F", "limit=3", "-f", "offset=1",
        )  # fmt: skip
    assert result.code == 0, result.err
    events = result.json["events"]
    assert len(events) == 3 and {e["type"] for e in events} == {"feature-created"}
    [sent] = gateway.received
    assert (sent.method, sent.path) == ("GET", "/api/admin/search/events")
    assert sent.query == {"type": ["IS:feature-created"], "limit": ["3"], "offset": ["1"]}


def test_a_posts_fields_are_a_typed_json_body(run, server, tmp_path):
    name = f"api-made-{uuid.uuid4().hex[:8]}"
    (tmp_path / "description.txt").write_text("read from a file")
    result = run(
        "api", "POST", f"/api/admin/projects/{PROJECT}/features",
        "-f", f"name={name}", "-F", "impressionData=true", "-f", "type=operational",
        "-F", f"description=@{tmp_path / 'description.txt'}",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert result.json["name"] == name
    flag = server.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()
    assert flag["impressionData"] is True  # -F true is JSON's true, not "true"
    assert (flag["type"], flag["description"]) == ("operational", "read from a file")
    event = newest_event(server, name)
    assert event["type"] == "feature-created" and event["data"]["impressionData"] is True


def test_a_raw_field_keeps_its_text_and_stdin_can_be_the_body(run, server, monkeypatch):
    name = f"api-raw-{uuid.uuid4().hex[:8]}"
    made = run("api", "POST", f"/api/admin/projects/{PROJECT}/features",
               "-f", f"name={name}", "-f", "description=42")  # fmt: skip
    assert made.code == 0, made.err
    flag = f"/api/admin/projects/{PROJECT}/features/{name}"
    assert server.get(flag).json()["description"] == "42"  # -F would have sent the number
    patch = [{"op": "replace", "path": "/description", "value": "from stdin"}]
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(patch).encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    with_input = run("api", "PATCH", flag, "--input", "-")
    assert with_input.code == 0, with_input.err
    assert server.get(flag).json()["description"] == "from stdin"


def test_input_sends_a_file_as_the_body_and_fields_go_to_the_query(
    run, server, sandbox, tmp_path, monkeypatch
):
    body = tmp_path / "patch.json"
    body.write_text(
        json.dumps([{"op": "replace", "path": "/description", "value": "from --input"}])
    )
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("api", "PATCH", FEATURE, "--input", str(body), "-f", "note=kept")
    assert result.code == 0, result.err
    assert server.get(FEATURE).json()["description"] == "from --input"
    [sent] = gateway.received
    assert sent.method == "PATCH" and sent.query == {"note": ["kept"]}
    assert sent.headers["content-type"] == "application/json"
    assert newest_event(server, FLAG)["type"] == "feature-metadata-updated"


def test_paginate_asks_every_page_and_prints_one_list(run, server, sandbox, monkeypatch):
    query = {"feature": f"IS:{FLAG}"}
    whole = server.get("/api/admin/search/events", params={**query, "limit": 100}).json()
    assert 7 * 2 < whole["total"] <= 100  # several pages of 7
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run(
            "api", "GET", "/api/admin/search/events", "-f", f"feature=IS:{FLAG}",
            "-F", "limit=7", "--paginate",
        )  # fmt: skip
    assert result.code == 0, result.err
    joined = result.json
    assert [e["id"] for e in joined["events"]] == [e["id"] for e in whole["events"]]
    assert joined["total"] == whole["total"]
    offsets = [r.query.get("offset", ["0"])[0] for r in gateway.received]
    pages = -(-whole["total"] // 7)
    assert offsets == [str(7 * n) for n in range(pages)]
    assert all(r.query["limit"] == ["7"] for r in gateway.received)


def test_paginate_over_a_list_without_total_stops_at_a_short_page(run, server):
    addon = server.get("/api/admin/addons").json()["addons"][0]["id"]
    path = f"/api/admin/addons/{addon}/events"
    ids: list[str] = []
    while page := server.get(path, params={"limit": 100, "offset": len(ids)}).json():
        ids += [d["id"] for d in page["integrationEvents"]]
        if len(page["integrationEvents"]) < 100:
            break
    assert len(ids) > 100  # more than one page
    result = run("api", "GET", path, "-F", "limit=100", "--paginate", "-o", "jsonl")
    assert result.code == 0, result.err
    assert [d["id"] for d in json.loads(result.out)["integrationEvents"]] == ids


def test_paginate_leaves_an_answer_that_is_not_paged_as_it_is(run, server, sandbox, monkeypatch):
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        result = run("api", "GET", "/api/admin/projects", "--paginate")
    assert result.code == 0, result.err
    assert (
        result.json["projects"][0]["id"]
        == server.get("/api/admin/projects").json()["projects"][0]["id"]
    )
    assert len(gateway.received) == 1


def test_an_error_answer_is_printed_then_said_with_its_exit_code(run):
    result = run("api", "GET", f"/api/admin/projects/{PROJECT}/features/no-such-flag", "-o", "json")
    assert result.code == 4
    assert result.json["name"] == "NotFoundError"  # the server's body, on stdout
    assert result.error["kind"] == "not-found" and result.error["status"] == 404
    refused = run("api", "POST", f"/api/admin/projects/{PROJECT}/features", "-f", "name=a b")
    assert refused.code == 2 and "Traceback" not in refused.err


def test_include_prints_the_status_and_headers_first(run):
    result = run("api", "GET", "/api/admin/projects", "--include")
    assert result.code == 0, result.err
    head, _, body = result.out.partition("\n\n")
    assert head.splitlines()[0] == "HTTP/1.1 200 OK"
    assert any(
        line.lower().startswith("content-type: application/json") for line in head.split("\n")
    )
    assert json.loads(body)["projects"]

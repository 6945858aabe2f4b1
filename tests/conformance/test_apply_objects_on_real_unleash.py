"""`flagtui apply` of what is not a flag's rollout, on a real Unleash (7.5.1 and 8.2.0 have
flag links): a flag made there with a link and a context field of its own, exported, the file
then edited to change the field (description, legal values, stickiness), to add a segment on
it that the flag's new strategy names, and to replace the flag's link with two others; applied,
the server holds the file's objects (the strategy carries the new segment's id) and a second
plan is nothing to do. Names are the test's own (real Unleash keeps state); the flag is archived
afterwards, then the segment and the context field deleted."""

from __future__ import annotations

import json
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import tomli_w

pytestmark = pytest.mark.unleash
BASE = "/api/admin/projects/default/features"
OLD_LINK = "https://example.com/old"
NEW_LINKS = [{"title": "Runbook", "url": "https://example.com/runbook"},
             {"url": "https://example.com/dashboard"}]  # fmt: skip


def _ok(answer: httpx.Response) -> Any:
    assert answer.status_code < 300, f"{answer.request.method} {answer.request.url.path}: " \
        f"{answer.status_code} {answer.text[:300]}"  # fmt: skip
    return answer.json() if answer.content else {}


@pytest.fixture
def names(http) -> Iterator[dict[str, str]]:
    suffix = uuid.uuid4().hex[:8]
    made = {"flag": f"apply-links-{suffix}", "field": f"applyObjects{suffix}",
            "segment": f"apply-segment-{suffix}"}  # fmt: skip
    yield made
    flag = made["flag"]
    at = f"{BASE}/{flag}/environments/production/strategies"
    if http.get(at).status_code == 200:  # its strategy first: the segment is then unused
        for strategy in http.get(at).json():
            http.delete(f"{at}/{strategy['id']}")
    http.delete(f"{BASE}/{flag}")  # archived, not deleted (see the notes)
    for segment in http.get("/api/admin/segments").json()["segments"]:
        if segment["name"] == made["segment"]:
            http.delete(f"/api/admin/segments/{segment['id']}")
    http.delete(f"/api/admin/context/{made['field']}")


def _edited(path: Path, names: dict[str, str]) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    (field,) = [f for f in data["contextFields"] if f["name"] == names["field"]]
    legal = [{"value": "a"}, {"value": "b", "description": "the second"}]
    field.update(description="changed by apply", stickiness=True, legalValues=legal)
    data["segments"] = [{"name": names["segment"], "description": "made by apply",
                         "constraints": [{"contextName": names["field"], "operator": "IN",
                                          "values": ["a"]}]}]  # fmt: skip
    (flag,) = data["flags"]
    flag["links"] = NEW_LINKS
    flag["environments"]["production"]["strategies"].append(
        {"name": "flexibleRollout", "disabled": False, "segments": [names["segment"]],
         "parameters": {"groupId": names["flag"], "rollout": "100", "stickiness": "default"}}
    )  # fmt: skip
    path.write_text(tomli_w.dumps(data), encoding="utf-8")


def test_a_new_segment_a_changed_context_field_and_links_are_applied(run, names, http, tmp_path):
    flag, field = names["flag"], names["field"]
    _ok(http.post("/api/admin/context", json={"name": field, "description": "before",
                                                   "legalValues": [{"value": "a"}]}))  # fmt: skip
    _ok(http.post(BASE, json={"name": flag, "type": "release"}))
    _ok(http.post(f"{BASE}/{flag}/link", json={"url": OLD_LINK, "title": "old"}))
    _ok(http.post(f"{BASE}/{flag}/environments/production/strategies", json={
        "name": "default", "constraints": [
            {"contextName": field, "operator": "IN", "values": ["a"]}]}))  # fmt: skip
    path = tmp_path / "flags.toml"
    code, _, err = run("export", "--project", "default", "--env", "production", flag,
                       "-f", str(path))  # fmt: skip
    assert code == 0, err
    _edited(path, names)

    code, out, err = run("apply", str(path), "--yes", "-o", "json")
    assert code == 0, err
    done = json.loads(out)["apply"]
    assert done["complete"] and {s["outcome"] for s in done["steps"]} == {"done"}, done["steps"]
    kinds = [(s["flag"], s["what"]) for s in done["steps"]]
    assert kinds[:2] == [(field, "update context field"), (names["segment"], "create segment")]
    links = next(s for s in done["steps"] if s["what"] == "links")
    assert links["requests"][0] == f"delete link {OLD_LINK}" and len(links["requests"]) == 3
    assert {b["state"] for b in done["readBack"]} == {"as the file"}, done["readBack"]

    code, out, err = run("plan", str(path), "-o", "json")
    assert code == 0 and json.loads(out)["changes"] is False, out + err

    stored = _ok(http.get(f"{BASE}/{flag}"))
    assert sorted((x["url"], x["title"]) for x in stored["links"]) == sorted(
        (x["url"], x.get("title")) for x in NEW_LINKS
    )
    (segment,) = [s for s in _ok(http.get("/api/admin/segments"))["segments"]
                  if s["name"] == names["segment"]]  # fmt: skip
    strategies = _ok(http.get(f"{BASE}/{flag}/environments/production/strategies"))
    assert [s.get("segments") or [] for s in strategies] == [[], [segment["id"]]]
    changed = _ok(http.get(f"/api/admin/context/{field}"))
    assert changed["description"] == "changed by apply" and changed["stickiness"] is True
    assert sorted(v["value"] for v in changed["legalValues"]) == ["a", "b"]

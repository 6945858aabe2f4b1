"""`flagtui plan`: an export planned against the server it came from is nothing to do (exit 0);
one edit through the API is exactly that change (exit 1), with who gets the flag before and
after as the SDKs' engine counts it, and who made the edit, from the event log; segments and
context fields the server lacks are creations; a flag missing from the file is left alone
unless --prune; hostile text prints through the display boundary; a bad file names its field."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from flagtui.fleet import flag_export
from flagtui.preview import Preview

from .helpers import assert_piped_golden

PROJECTS = ("--project", "growth", "--project", "hostile")
FLAG = "trial-guided-mode"  # growth: on in production, a 13 % rollout first
PATH = f"/api/admin/projects/growth/features/{FLAG}"


@pytest.fixture
def exported(run, tmp_path) -> Path:
    path = tmp_path / "flags.toml"
    result = run("export", *PROJECTS, "--env", "development", "--env", "production",
                 "-f", str(path))  # fmt: skip
    assert result.code == 0, result.err
    return path


def test_an_export_planned_against_its_server_is_nothing_to_do(run, exported):
    result = run("plan", str(exported), "-o", "json")
    assert result.code == 0, result.err
    assert result.json["changes"] is False and result.json["flags"] == []
    assert_piped_golden(run, "plan", "plan", str(exported))
    table = run("plan", str(exported), "-o", "table")
    assert table.code == 0 and table.out.strip().endswith("plan: nothing to do")


def _population(server, record: dict, users: int) -> tuple[int, dict[str, int]]:
    segments = server.get("/api/admin/segments").json()["segments"]
    parents = [server.get(f"/api/admin/projects/growth/features/{d['feature']}").json()
               for d in record.get("dependencies") or []]  # fmt: skip
    counted = Preview(record, "production", segments=segments, related=parents).population(users)
    return counted.enabled, dict(counted.variants)


def test_one_edit_is_exactly_that_change_with_its_users_and_its_author(run, exported, server):
    was = server.get(PATH).json()
    prod = next(e for e in was["environments"] if e["name"] == "production")
    strategy = next(s for s in prod["strategies"] if s["name"] == "flexibleRollout")
    body = {k: strategy[k] for k in ("name", "title", "parameters", "constraints", "segments")}
    body["parameters"] = {**body["parameters"], "rollout": "90"}
    body["constraints"] = []  # everyone in the rollout, not only large tenants
    edited = server.put(f"{PATH}/environments/production/strategies/{strategy['id']}", json=body)
    assert edited.status_code == 200, edited.text
    result = run("plan", str(exported), "-o", "json", "--users", "500",
                 "--context", "userId=u-7")  # fmt: skip
    assert result.code == 1, result.err
    (flag,) = result.json["flags"]
    assert (flag["project"], flag["name"], flag["action"]) == ("growth", FLAG, "update")
    assert [c["what"] for c in flag["changes"]] == ["strategies in production"]
    (change,) = flag["changes"]
    assert change["before"][0]["parameters"]["rollout"] == "90"  # the server, as edited
    assert change["after"][0]["parameters"]["rollout"] == strategy["parameters"]["rollout"]
    (evaluated,) = flag["evaluation"]  # development serves the same on both sides
    assert evaluated["environment"] == "production" and evaluated["users"] == 500
    now = _population(server, server.get(PATH).json(), 500)
    then = _population(server, was, 500)
    assert (evaluated["before"]["enabled"], evaluated["before"]["variants"]) == now
    assert (evaluated["after"]["enabled"], evaluated["after"]["variants"]) == then
    assert evaluated["before"]["enabled"] > evaluated["after"]["enabled"]
    (typed,) = evaluated["contexts"]
    assert typed["context"]["userId"] == "u-7"
    newest = server.get("/api/admin/search/events", params={"feature": f"IS:{FLAG}", "limit": 1})
    event = newest.json()["events"][0]
    assert flag["lastChange"]["by"] == event["createdBy"] and event["createdBy"]
    assert flag["lastChange"]["type"] == event["type"] == "feature-strategy-update"
    assert flag["desired"]["name"] == FLAG  # what an apply would send: the file's flag


def test_missing_segments_and_context_fields_are_creations(run, exported, tmp_path):
    text = exported.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    target = next(f for f in data["flags"] if f["name"] == FLAG)
    assert target["environments"]["production"]["strategies"][0].get("segments") is None
    marker = f'name = "{FLAG}"'
    head, tail = text.split(marker, 1)
    start = tail.index("[[flags.environments.production.strategies]]")
    line_end = tail.index("\n", tail.index("disabled = ", start))
    tail = tail[: line_end + 1] + 'segments = ["plan-new-segment"]\n' + tail[line_end + 1 :]
    text = (
        head
        + marker
        + tail
        + (
            '\n[[segments]]\nname = "plan-new-segment"\n\n[[segments.constraints]]\n'
            'contextName = "planField"\noperator = "IN"\nvalues = ["a"]\n'
            '\n[[contextFields]]\nname = "planField"\nstickiness = false\nlegalValues = []\n'
        )
    )
    path = tmp_path / "more.toml"
    path.write_text(text, encoding="utf-8")
    result = run("plan", str(path), "-o", "json")
    assert result.code == 1, result.err
    assert [(s["name"], s["action"]) for s in result.json["segments"]] == [
        ("plan-new-segment", "create")
    ]
    assert [(f["name"], f["action"]) for f in result.json["contextFields"]] == [
        ("planField", "create")
    ]
    (flag,) = result.json["flags"]
    (evaluated,) = flag["evaluation"]
    assert evaluated["after"]["enabled"] == 0  # a synthetic user sends no planField


def test_a_flag_missing_from_the_file_is_left_alone_unless_pruned(run, exported, tmp_path):
    text = exported.read_text(encoding="utf-8")
    first, rest = text.split("\n[[flags]]\n", 1)
    _, others = rest.split("\n[[flags]]\n", 1)  # the first flag's table dropped
    dropped = tomllib.loads("[[flags]]\n" + rest.split("\n[[flags]]\n", 1)[0])["flags"][0]
    path = tmp_path / "fewer.toml"
    path.write_text(first + "\n[[flags]]\n" + others, encoding="utf-8")
    kept = run("plan", str(path), "-o", "json")
    assert kept.code == 0, kept.err  # nothing will be done
    assert kept.json["flags"] == [
        {"project": dropped["project"], "name": dropped["name"], "action": "absent"}
    ]
    pruned = run("plan", str(path), "--prune", "-o", "json")
    assert pruned.code == 1 and pruned.json["flags"][0]["action"] == "prune"


def test_hostile_text_survives_and_prints_through_the_display_boundary(run, exported, server):
    hostile = server.get("/api/admin/projects/hostile/features/hx-escapes").json()["description"]
    patched = server.patch(
        "/api/admin/projects/hostile/features/hx-plain",
        json=[{"op": "replace", "path": "/description", "value": hostile}],
    )
    assert patched.status_code == 200, patched.text
    as_json = run("plan", str(exported), "-o", "json")
    assert as_json.code == 1, as_json.err
    (flag,) = as_json.json["flags"]
    plain = "hx-desc-plain: a feature with no hostile text"
    assert flag["changes"] == [{"what": "description", "before": hostile, "after": plain}]
    table = run("plan", str(exported), "-o", "table")
    assert table.code == 1
    assert "\x1b" not in table.out and "\u202e" not in table.out and "\x9b" not in table.out
    assert "␛]52;c;" in table.out and "[bold]BOLD[/bold]" in table.out


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("version = 2\nprojects = []\nenvironments = ['production']\n", "version"),
        ("version = 1\nprojects = []\nenvironments = []\n", "environments"),
        ("version = 1\nprojects = [\n", "not TOML"),
        (
            "version = 1\nprojects = ['p']\nenvironments = ['production']\n[[flags]]\n"
            "project = 'p'\nname = 'f'\n[flags.environments.staging]\nenabled = true\n",
            "flags[0].environments.staging",
        ),
    ],
)
def test_a_file_that_is_not_a_flags_file_names_its_field(run, tmp_path, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = run("plan", str(path), "-o", "json")
    assert result.code == 2 and field in result.error["message"], result.err
    assert "Traceback" not in result.err
    assert json.loads(result.err)["error"]["kind"] == "invalid-argument"


def test_a_segment_changed_in_the_file_says_who_gets_the_flags_that_use_it(run, exported, tmp_path):
    data = tomllib.loads(exported.read_text(encoding="utf-8"))
    (segment, *_) = data["segments"]
    users = [f["name"] for f in data["flags"] for e in f["environments"].values()
             for s in e["strategies"] if segment["name"] in s.get("segments", [])]  # fmt: skip
    assert users  # the export lists the segments its flags use
    # Its members: every one of the synthetic users (their userIds start with u-).
    member = {"contextName": "userId", "operator": "STR_STARTS_WITH", "values": ["u-"]}
    path = tmp_path / "segment.toml"
    text = _with_segment(exported.read_text(encoding="utf-8"), segment,
                         dict(segment, constraints=[member]))  # fmt: skip
    path.write_text(text, encoding="utf-8")
    result = run("plan", str(path), "-o", "json")
    assert result.code == 1, result.err
    (planned,) = result.json["segments"]
    assert (planned["name"], planned["action"]) == (segment["name"], "update")
    assert [c["what"] for c in planned["changes"]] == ["constraints"]
    assert {f["name"] for f in planned["affects"]} == set(users)
    assert result.json["flags"] == []  # the flags themselves are as the file has them
    table = run("plan", str(path), "-o", "table")
    assert f"~ segment {segment['name']} (update)" in table.out
    # Each is evaluated where the segment is used, on both sides: what SDKs are served there
    # before (the server's segment) and after (the file's).
    assert all(f["evaluation"] and all("before" in e and "after" in e for e in f["evaluation"])
               for f in planned["affects"])  # fmt: skip


def _with_segment(text: str, segment: dict, changed: dict) -> str:
    """The file with `segment`'s table replaced by `changed` (the file's own writer)."""
    from flagtui.fleet.flag_export import array_table

    start = text.index(f'[[segments]]\nname = "{segment["name"]}"\n')
    after = start + 1
    while True:  # the next table that is not one of this segment's
        after = text.index("\n[[", after)
        if not text.startswith("\n[[segments.", after):
            break
        after += 1
    return text[:start] + array_table("segments", changed) + text[after:]


def test_a_named_flag_the_server_no_longer_has_is_a_creation(run, server, tmp_path):
    path = tmp_path / "named.toml"
    made = run("export", "--project", "growth", "--env", "production", FLAG, "-f", str(path))
    assert made.code == 0, made.err
    assert server.delete(PATH).status_code == 202  # archived: no longer a live flag
    result = run("plan", str(path), "-o", "json")
    assert result.code == 1, result.err
    (flag,) = result.json["flags"]
    assert (flag["name"], flag["action"], flag["changes"]) == (FLAG, "create", [])
    (evaluated,) = flag["evaluation"]
    assert evaluated["before"] == {"enabled": 0, "variants": {"disabled": 1000}}
    assert "lastChange" not in flag  # only a flag the server has was changed by someone


def test_small_pages_plan_what_one_page_plans(run, tmp_path, monkeypatch):
    """The server is compared with the file a page at a time; with pages of three flags (a
    child and its parent in different pages, the parent unchanged) the plan is the same."""
    path = tmp_path / "flags.toml"
    assert run("export", "--project", "payments", "--env", "production", "-f", str(path)).code == 0
    data = tomllib.loads(path.read_text())
    children = [f for f in data["flags"] if f["dependencies"]]
    assert children, "the demo data's payments project has child flags"
    for flag in children:  # each child switched: its evaluation needs its parent's state
        env = flag["environments"]["production"]
        env["enabled"] = not env["enabled"]
    path.write_text(flag_export.toml_text(data))
    whole = run("plan", str(path), "-o", "json", "--users", "200")
    monkeypatch.setattr(flag_export, "PAGE", 3)
    paged = run("plan", str(path), "-o", "json", "--users", "200")
    assert whole.code == paged.code == 1, whole.err + paged.err
    assert paged.json == whole.json
    assert len(whole.json["flags"]) == len(children)
    assert all(f["evaluation"] for f in whole.json["flags"])


def test_a_segment_change_evaluates_its_flags_as_the_server_serves_them_now(run, server, tmp_path):
    """The flags a changed segment affects are read from the server even when they are
    unchanged themselves: "before" is what the server serves now (its segment takes every
    synthetic user in), "after" the file's (it takes none in)."""
    everyone = [{"contextName": "userId", "operator": "STR_STARTS_WITH", "values": ["u-"]}]
    exported = tmp_path / "flags.toml"
    assert (
        run("export", "--project", "growth", "--env", "production", "-f", str(exported)).code == 0
    )
    data = tomllib.loads(exported.read_text(encoding="utf-8"))
    # Used by signup-faster-payment-flow, on in production: a 50 % rollout in this segment.
    (segment,) = [s for s in data["segments"] if s["name"] == "ios-devices"]
    (listed,) = [s for s in server.get("/api/admin/segments").json()["segments"]
                 if s["name"] == segment["name"]]  # fmt: skip
    put = {k: listed[k] for k in ("name", "description", "project") if listed.get(k)}
    assert server.put(f"/api/admin/segments/{listed['id']}",
                      json={**put, "constraints": everyone}).status_code == 204  # fmt: skip
    nobody = [{"contextName": "userId", "operator": "IN", "values": ["nobody"]}]
    path = tmp_path / "segment.toml"
    text = _with_segment(exported.read_text(encoding="utf-8"), segment,
                         dict(segment, constraints=nobody))  # fmt: skip
    path.write_text(text, encoding="utf-8")
    result = run("plan", str(path), "-o", "json", "--users", "300")
    assert result.code == 1, result.err
    (planned,) = result.json["segments"]
    served = 0
    for flag in planned["affects"]:
        record = server.get(f"/api/admin/projects/growth/features/{flag['name']}").json()
        (evaluated,) = flag["evaluation"]
        before = (evaluated["before"]["enabled"], evaluated["before"]["variants"])
        assert before == _population(server, record, 300), flag["name"]
        assert evaluated["after"]["enabled"] == 0
        served += before[0]
    assert served > 0  # someone is served now: the comparison can tell "before" from nobody

"""An apply is made against the plan that was shown (`plan_since`): an object the plan writes
that someone changed, created or archived since is named, and nothing is sent; with nothing
changed, the plan is applied."""

from __future__ import annotations

import io
import tomllib

import httpx
import pytest

from flagtui.api.edits import EditConflict
from flagtui.fleet.apply import apply_plan
from flagtui.fleet.flag_export import Selection, toml_text, write_file
from flagtui.fleet.flags_file import parse
from flagtui.fleet.plan import make_plan
from testkit.event_count import event_count

PROJECT = "growth"


async def _file(admin, edit):
    out = io.StringIO()
    await write_file(admin, Selection([PROJECT], ["production"]), out)
    data = tomllib.loads(out.getvalue())
    edit(data)
    return parse(toml_text(data))


@pytest.fixture
def http(sandbox):
    with httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token}) as h:
        yield h


async def test_a_flag_and_a_segment_changed_since_the_plan_send_nothing(admin, http):
    def edit(data):
        data["flags"][0]["description"] = "as the file says"
        data["segments"][0]["description"] = "the file's segment"

    file = await _file(admin, edit)
    planned = await make_plan(admin, file, users=50)
    flag, segment = planned["flags"][0], planned["segments"][0]
    assert (flag["action"], segment["action"]) == ("update", "update")
    path = f"/api/admin/projects/{PROJECT}/features/{flag['name']}"
    assert http.patch(path, json=[{"op": "replace", "path": "/description",
                                   "value": "another admin's"}]).status_code == 200  # fmt: skip
    (listed,) = [s for s in http.get("/api/admin/segments").json()["segments"]
                 if s["name"] == segment["name"]]  # fmt: skip
    body = {"name": listed["name"], "description": "theirs", "constraints": listed["constraints"]}
    assert http.put(f"/api/admin/segments/{listed['id']}", json=body).status_code == 204
    events = event_count(http)
    with pytest.raises(EditConflict) as caught:
        await apply_plan(admin, planned)
    said = [c.field for c in caught.value.changed]
    assert said == [f"flag {PROJECT}/{flag['name']}", f"segment {segment['name']}"]
    assert any("another admin" in line for line in caught.value.lines()) or caught.value.recorded
    assert event_count(http) == events
    assert http.get(path).json()["description"] == "another admin's"


async def test_a_flag_created_since_the_plan_that_creates_it_sends_nothing(admin, http):
    def edit(data):
        made = dict(data["flags"][0], name="made-by-the-file")
        data["flags"].append(made)

    planned = await make_plan(admin, await _file(admin, edit), users=50)
    assert [f["action"] for f in planned["flags"]] == ["create"]
    made = http.post(f"/api/admin/projects/{PROJECT}/features", json={"name": "made-by-the-file"})
    assert made.status_code == 201
    events = event_count(http)
    with pytest.raises(EditConflict) as caught:
        await apply_plan(admin, planned)
    assert [c.field for c in caught.value.changed] == [f"flag {PROJECT}/made-by-the-file"]
    assert event_count(http) == events


async def test_a_plan_nobody_overtook_is_applied(admin, http):
    def edit(data):
        data["flags"][0]["description"] = "as the file says"

    planned = await make_plan(admin, await _file(admin, edit), users=50)
    result, failed = await apply_plan(admin, planned)
    assert failed is None and result["complete"]
    name = planned["flags"][0]["name"]
    got = http.get(f"/api/admin/projects/{PROJECT}/features/{name}").json()
    assert got["description"] == "as the file says"

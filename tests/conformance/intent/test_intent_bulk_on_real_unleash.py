"""Several flags in one command on real Unleash (issue 27): 20 flags and one that does not exist,
archived in one plan. Each of the 20 records `feature-archived` and reaches the `archived` stage;
the missing one is reported by name, refused, while the others are done; `--dry-run` first sends
nothing (no event). Flags are new (`bulk-…`) and stay archived, never deleted."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from real_intent import (
    PROJECT,
    flag_event_types_since,
    newest_event_id,
    wait_for_flag_events,
    wait_for_stage,
)

pytestmark = pytest.mark.unleash

COUNT = 20


def test_twenty_flags_archived_in_one_plan_each_with_its_event(flagtui, admin, monkeypatch):
    run = uuid.uuid4().hex[:8]
    names = [f"bulk-{run}-{i:02d}" for i in range(COUNT)]
    for name in names:
        assert flagtui("feature", "create", PROJECT, name).code == 0
    for name in names:  # written after the answer: an archive before it would be overwritten
        wait_for_stage(admin, PROJECT, name, "initial")
    missing = f"bulk-{run}-missing"
    mark = newest_event_id(admin)

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*names, missing]) + "\n"))
    plan = flagtui("feature", "archive", PROJECT, "--stdin", "--dry-run", "-o", "json")
    assert plan.code == 4, plan.err  # the missing flag: refused at its read, even in the plan
    planned = [row for row in json.loads(plan.out) if row["outcome"] == "planned"]
    assert [row["featureName"] for row in planned] == names
    assert all(not flag_event_types_since(admin, name, mark) for name in names[:3])

    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*names, missing]) + "\n"))
    result = flagtui("feature", "archive", PROJECT, "--stdin", "--yes", "-o", "json")
    assert result.code == 4, result.err
    rows = {row["featureName"]: row for row in json.loads(result.out)}
    assert rows[missing]["outcome"] == "refused"
    assert rows[missing]["error"]["kind"] == "not-found"
    for name in names:
        assert rows[name]["outcome"] == "done"
        wait_for_flag_events(admin, name, mark, [("feature-archived", None)])
        wait_for_stage(admin, PROJECT, name, "archived")

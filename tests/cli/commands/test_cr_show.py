"""`flagtui cr show`: golden JSON, and the record `cr list` names."""

from __future__ import annotations

from .helpers import assert_piped_golden


def test_prints_its_answer_as_json_when_piped(run):
    assert_piped_golden(run, "cr-show", "cr", "show", "platform", "43")


def test_cr_show_prints_one_record(run):
    first = run("cr", "list", "platform").json
    assert first, "the demo project has change requests"
    shown = run("cr", "show", "platform", str(first[0]["id"]))
    assert shown.code == 0
    assert shown.json["id"] == first[0]["id"]

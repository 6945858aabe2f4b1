"""A plan (`plan.make_plan`'s) in words for a person, terraform-like: + create, ~ update,
- prune, ? left alone; each change field by field, before → after, and who gets each changed
flag before → after. `flagtui plan`, `apply` and `promote` print these lines; the TUI's
promotion shows them (each through its own display boundary: the lines hold server text)."""

from __future__ import annotations

import json
from typing import Any

MARKS = {"create": "+", "update": "~", "prune": "-", "absent": "?"}


def _said(value: Any) -> str:
    # Here, not at the top: it loads pydantic
    from flagtui.fleet.drift import words

    if isinstance(value, list) and value and isinstance(value[0], dict) and "name" in value[0]:
        return str(words(value))
    if value is None:
        return "absent"
    if isinstance(value, str):  # as it is: printed through the display boundary
        return f"“{value}”"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _population(side: dict[str, Any] | None, users: int) -> str:
    if side is None:
        return "—"
    variants = {k: v for k, v in side["variants"].items() if k != "disabled"}
    said = f"{side['enabled']:,} of {users:,}"
    if variants:
        said += " (" + ", ".join(f"{k} {v:,}" for k, v in variants.items()) + ")"
    return said


def _evaluations(evaluations: list[dict[str, Any]]) -> list[str]:
    said = []
    for ev in evaluations:
        if "error" in ev:
            said.append(f"    who gets it in {ev['environment']}: not evaluated ({ev['error']})")
            continue
        users = ev["users"]
        said.append(f"    who gets it in {ev['environment']}: "
                    f"{_population(ev.get('before'), users)} → "
                    f"{_population(ev.get('after'), users)} synthetic users")  # fmt: skip
        for typed in ev["contexts"]:
            b, a = typed["before"], typed["after"]
            said.append(f"      {_said(typed['context'])}: "
                        f"{'on' if b['enabled'] else 'off'} ({b['variant']}) → "
                        f"{'on' if a['enabled'] else 'off'} ({a['variant']})")  # fmt: skip
    return said


def lines(planned: dict[str, Any]) -> list[str]:
    """The plan for a person, terraform-like: + create, ~ update, - prune, ? left alone."""
    said: list[str] = []
    for kind, title in (("contextFields", "context field"), ("segments", "segment")):
        for item in planned[kind]:
            said.append(f"{MARKS[item['action']]} {title} {item['name']} ({item['action']})")
            for change in item.get("changes", []):
                said.append(f"    {change['what']}: {_said(change['before'])} → "
                            f"{_said(change['after'])}")  # fmt: skip
            for flag in item.get("affects", []):
                said.append(f"    used by {flag['project']}/{flag['name']}")
                said.extend(_evaluations(flag["evaluation"]))
    for flag in planned["flags"]:
        name = f"{flag['project']}/{flag['name']}"
        if flag["action"] == "absent":
            said.append(f"? {name}: on the server, not in the file: left alone (--prune marks it)")
            continue
        said.append(f"{MARKS[flag['action']]} {name} ({flag['action']})")
        for change in flag.get("changes", []):
            said.append(f"    {change['what']}: {_said(change['before'])} → "
                        f"{_said(change['after'])}")  # fmt: skip
        said.extend(_evaluations(flag.get("evaluation", [])))
        last = flag.get("lastChange")
        if last:
            if "by" in last:
                said.append(f"    last changed by {last['by']} at {last['at']} ({last['type']})")
            else:
                said.append(f"    last change: {last['unknown']}")
    summary = planned["summary"]
    said.append(
        f"plan: {summary['create']} to create, {summary['update']} to change, "
        f"{summary['prune']} to prune, {summary['absent']} left alone; "
        f"{summary['segments']} segments and {summary['contextFields']} context fields to "
        "create or change"
        if planned["changes"] or summary["absent"]
        else "plan: nothing to do"
    )
    return said

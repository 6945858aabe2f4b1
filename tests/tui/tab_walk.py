"""Walking a form with Tab as a person does: the fields in the order Tab reaches them, each
named by the label a person reads for it."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from testkit.pilot import settle


def _text(node: Widget) -> str:
    """A label's words ("" for any other widget, or one hidden)."""
    if type(node).__name__ not in ("PlainLabel", "Label") or not node.display:
        return ""
    return str(node.render()).strip() if isinstance(node, Label | Static) else ""


def label_of(field: Widget) -> str:
    """What names `field` on screen: a button's or a checkbox's own words; in a row of fields,
    the label before it in the row, else its placeholder or prompt; else the label drawn
    above it (the nearest label before it)."""
    if isinstance(field, Button | Checkbox):
        return str(field.label)
    parent = field.parent
    if parent is not None and type(parent).__name__ == "Horizontal":
        beside = ""
        for node in parent.children:
            if node is field:
                break
            beside = _text(node) or ("" if node.can_focus else beside)
        if beside:
            return beside
        if isinstance(field, Input) and field.placeholder:
            return str(field.placeholder)
        if isinstance(field, Select):
            return str(field.prompt)
    above = ""
    for node in field.screen.walk_children(with_self=False):
        if node is field:
            break
        above = _text(node) or above
    return above or str(field.id)


async def tab_walk(app: Any, pilot: Any, limit: int = 60) -> list[str]:
    """From the focused field, Tab until the focus comes back to it: the label of each field
    reached (the first: the one focused when the walk started)."""
    start = app.focused
    assert start is not None, "nothing focused"
    walked = []
    for _ in range(limit):
        walked.append(label_of(app.focused))
        await pilot.press("tab")
        await settle(app, pilot)
        if app.focused is start:
            return walked
    raise AssertionError(f"Tab never came back to the first field: {walked}")


def from_first(walked: list[str], first: str) -> list[str]:
    """The walk as a cycle, read from the field drawn first (`first`)."""
    at = walked.index(first)
    return walked[at:] + walked[:at]

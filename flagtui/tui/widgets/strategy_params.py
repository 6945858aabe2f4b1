"""A strategy's parameters in a form: a gradual rollout's (flexibleRollout) rollout %,
stickiness and groupId, or one input per parameter the server declares for the type. Values
are read as typed; `rollout_rules` checks them when the form is reviewed, and a refusal of
`parameters.X` is said under X's input (what was typed stays)."""

from __future__ import annotations

from textual import getters
from textual.app import ComposeResult
from textual.containers import Vertical

from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Strategy, StrategyType
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.api.rollout_rules import FLEXIBLE_ROLLOUT
from flagtui.tui.format import safe
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel

BUILT_IN = ("default", "random")
ALWAYS_STICKY = ("userId", "sessionId")  # what Unleash's own UI offers on every server


def stickiness_options(catalog: RolloutCatalog, current: str | None) -> list[str]:
    """default, random, then the context fields marked for stickiness (and `current`)."""
    names = list(BUILT_IN)
    for f in catalog.context_fields:
        if (f.stickiness or f.name in ALWAYS_STICKY) and f.name not in names:
            names.append(f.name)
    if current and current not in names:
        names.append(current)
    return names


class ParameterFields(Vertical):
    DEFAULT_CSS = "ParameterFields, ParameterFields Vertical { height: auto; }"
    gradual = getters.query_one("#gradual", Vertical)
    others = getters.query_one("#other-params", Vertical)

    def __init__(self, catalog: RolloutCatalog, feature: str, existing: Strategy | None) -> None:
        super().__init__()
        self.catalog = catalog
        self.given = {
            k: str(v) for k, v in ((existing.parameters or {}) if existing else {}).items()
        }
        self.default_group = feature
        self.kind: StrategyType | None = None
        self.shown = 0  # each type's inputs get fresh ids: the removed ones may linger a frame

    def compose(self) -> ComposeResult:
        given = self.given
        with Vertical(id="gradual"):
            yield PlainLabel("Rollout % (0–100)")
            yield InertInput(given.get("rollout", "100"), id="rollout", compact=True)
            yield MessageLine(id="rollout-error", classes="error-line")
            yield PlainLabel("Stickiness (what the percentage hashes)")
            sticky = given.get("stickiness", "default")
            options = [(safe(n), n) for n in stickiness_options(self.catalog, sticky)]
            yield Select[str](options, value=sticky, id="stickiness", compact=True,
                              allow_blank=False)  # fmt: skip
            yield MessageLine(id="stickiness-error", classes="error-line")
            yield PlainLabel("Group id (text; default: the flag's name)")
            yield InertInput(given.get("groupId", self.default_group), id="groupId", compact=True)
            yield MessageLine(id="groupId-error", classes="error-line")
        yield Vertical(id="other-params")

    def show_type(self, kind: StrategyType | None) -> None:
        """The inputs of `kind`'s parameters (what was typed for another type is kept)."""
        for box in self.others.query(InertInput).results(InertInput):
            self.given[str(box.name)] = box.raw_value
        self.kind = kind
        gradual = kind is not None and kind.name == FLEXIBLE_ROLLOUT
        self.gradual.display = gradual
        self.others.remove_children()
        if kind is None or gradual:
            return
        self.shown += 1
        if not kind.parameters:
            self.others.mount(PlainLabel(f"{kind.name} has no parameters"))
        for i, p in enumerate(kind.parameters):
            needs = ", required" if p.required else ""
            about = f" — {p.description}" if p.description else ""
            self.others.mount(
                PlainLabel(f"{p.name} ({p.type or 'string'}{needs}){about}"),
                InertInput(
                    self.given.get(p.name, ""),
                    id=f"param-{self.shown}-{i}",
                    name=p.name,
                    compact=True,
                ),
                MessageLine(id=f"param-{self.shown}-{i}-error", classes="error-line"),
            )

    def values(self, kind_name: str) -> dict[str, str]:
        if kind_name == FLEXIBLE_ROLLOUT:
            sticky = self.query_one("#stickiness", Select).value
            return {
                "rollout": self.query_one("#rollout", InertInput).raw_value.strip(),
                "stickiness": sticky if isinstance(sticky, str) else "default",
                "groupId": self.query_one("#groupId", InertInput).raw_value,
            }
        declared = self.kind.parameters if self.kind else []
        boxes = {
            str(b.name): b.raw_value for b in self.others.query(InertInput).results(InertInput)
        }
        return {p.name: boxes[p.name] for p in declared if boxes.get(p.name) or p.required}

    def show_refusal(self, error: InvalidArgument | None) -> None:
        """The refusal under the input of the parameter it names (None: clear them)."""
        for line in self.query(".error-line").results(MessageLine):
            line.update("")
        if error is None or not error.field.startswith("parameters."):
            return
        name = error.field.removeprefix("parameters.")
        if name in ("rollout", "stickiness", "groupId") and self.gradual.display:
            self.query_one(f"#{name}-error", MessageLine).update(f"↑ {error.limit}")
            return
        for box in self.others.query(InertInput).results(InertInput):
            if box.name == name:
                self.query_one(f"#{box.id}-error", MessageLine).update(f"↑ {error.limit}")

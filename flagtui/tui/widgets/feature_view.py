"""A feature's detail drawn in parts, so the list row's fields drawn at Enter stay drawn.

Enter on a row opens the detail at once with what the row knows (name, description, stage,
flags, each environment's state); the full record arrives a round trip later. Each part is its
own widget and is updated only when its text changes: the row's parts stay as they were drawn
(unless the record says otherwise, e.g. a description patched meanwhile), and what the row
did not have (strategies, variants, tags, dependencies…) is drawn into parts of its own."""

from __future__ import annotations

from collections.abc import Iterator

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from flagtui.api.models import Constraint, Feature, FeatureEnvironment, Strategy, Variant
from flagtui.tui.format import when, yes_no
from flagtui.tui.widgets.text import PlainStatic

NOT_IN_ROW = "strategies, variants, tags and dependencies"


class Part(PlainStatic):
    """One part of the detail: redrawn only when its text changes, hidden while empty."""

    def __init__(self, text: Text, *, id: str, classes: str | None = None) -> None:
        super().__init__(text, id=id, classes=classes)
        self.shown = text
        self.display = bool(text.plain)

    def draw(self, text: Text) -> None:
        if text == self.shown:  # same characters and styles: nothing to redraw
            return
        self.shown = text
        self.display = bool(text.plain)
        self.update(text)


def _constraint(c: Constraint) -> str:
    values = c.values if c.values else ([c.value] if c.value is not None else [])
    neg = "NOT " if c.inverted else ""
    case = " (any case)" if c.case_insensitive else ""
    return f"{c.context_name} {neg}{c.operator} {', '.join(values)}{case}"


def _variant(v: Variant) -> str:
    payload = f" = {v.payload.type}:{v.payload.value}" if v.payload else ""
    weight = f" {v.weight / 10:g}%" if v.weight is not None else ""
    return f"{v.name}{weight}{payload}"


def _strategy(out: Text, s: Strategy) -> None:
    title = f" “{s.title}”" if s.title else ""
    params = " ".join(f"{k}={v}" for k, v in sorted((s.parameters or {}).items()))
    out.append(f"    • {s.name}{title}", style="bold")
    if s.disabled:
        out.append(" (disabled)", style="dim")
    out.append(f" {params}\n" if params else "\n")
    for c in s.constraints or []:
        out.append(f"        if {_constraint(c)}\n")
    if s.segments:
        out.append(f"        segments {', '.join(str(x) for x in s.segments)}\n")
    for v in s.variants or []:
        out.append(f"        variant {_variant(v)}\n")


def _section(out: Text, title: str, lines: list[str]) -> None:
    out.append(f"\n{title}\n", style="bold underline")
    for line in lines or ["—"]:
        out.append(f"  {line}\n")


def head_parts(f: Feature) -> dict[str, Text]:
    """The parts a list row has the fields for, by widget id (in the order shown)."""
    title = Text.assemble((f.name, "bold"), f"  {f.type or ''} · project {f.project or '?'}")
    archived = Text()
    if f.is_archived:
        archived.append(f"Archived {when(f.archived_at)} · v revives it", style="bold yellow")
    stage = f.lifecycle.stage if f.lifecycle else "—"
    since = f" since {when(f.lifecycle.entered_stage_at)}" if f.lifecycle else ""
    by = f" by {f.created_by.name or f.created_by.username}" if f.created_by else ""
    return {
        "feature-title": title,
        "feature-description": Text(f.description or "(no description)", style="italic"),
        "feature-archived": archived,
        "feature-stage": Text(f"\nStage {stage}{since}"),
        "feature-flags": Text(
            f"Stale {yes_no(f.stale)} · potentially stale {yes_no(f.potentially_stale)} · "
            f"impression data {yes_no(f.impression_data)} · archived {yes_no(f.is_archived)}"
        ),
        "feature-created": Text(f"Created {when(f.created_at)}{by}"),
    }


def environment_line(env: FeatureEnvironment) -> Text:
    mark, style = ("✓", "green") if env.enabled else ("✗", "red")
    kind = f" ({env.type})" if env.type else ""
    return Text.assemble("  ", (mark, style), " ", (env.name, "bold"), kind)


def strategy_count(env: FeatureEnvironment) -> Text:
    """Drawn after the environment's line, on the same line (the row has no count)."""
    return Text(f" · {len(env.strategies or [])} strategies")


def environment_detail(env: FeatureEnvironment) -> Text:
    """What only the full record says of an environment: its strategies and variants."""
    out = Text()
    for s in env.strategies or []:
        _strategy(out, s)
    for v in env.variants or []:
        out.append(f"    variant {_variant(v)}\n")
    out.rstrip()
    return out


def more_text(f: Feature) -> Text:
    """Variants, tags, dependencies, children, collaborators: the full record's alone."""
    out = Text()
    _section(out, "Variants", [_variant(v) for v in f.variants or []])
    _section(out, "Tags", [f"{t.type}:{t.value}" for t in f.tags or []])
    deps = [
        f"{d.feature} {'enabled' if d.enabled is not False else 'disabled'}"
        + (f" (variants {', '.join(d.variants)})" if d.variants else "")
        for d in f.dependencies or []
    ]
    _section(out, "Dependencies", deps)
    _section(out, "Children", list(f.children or []))
    users = f.collaborators.users if f.collaborators else []
    _section(out, "Collaborators", [u.name or u.username or f"user {u.id}" for u in users])
    out.rstrip()
    return out


class FeatureView(Vertical):
    """The detail (id `feature` in the detail screen): a failure line, the row's parts, the
    environments (each its state line, then its strategies), and the rest of the record.

    `show(feature, complete=False)` for a list row or an archived flag's archive row (no
    strategies, variants or dependencies); `show(feature)` for the full record; `fail(note)`
    says a read failed, keeping what is drawn; `redraw()` after the clock's zone changed."""

    DEFAULT_CSS = """
    FeatureView, FeatureView Vertical, FeatureView Horizontal, FeatureView Part { height: auto; }
    FeatureView .env-line { width: auto; }
    """

    def __init__(self, name: str, row: Feature | None = None, *, id: str) -> None:
        super().__init__(id=id)
        self.feature_name = name
        self.feature = row
        self.complete = False
        self.note: Text | None = None

    def compose(self) -> ComposeResult:
        yield Part(Text(), id="feature-failure")
        for part_id, text in self.heads().items():
            yield Part(text, id=part_id)
        with Vertical(id="feature-environments"):
            yield from self.environment_parts()
        yield Part(self.more(), id="feature-more")

    def show(self, feature: Feature, *, complete: bool = True) -> None:
        self.feature, self.complete, self.note = feature, complete, None
        self.redraw()

    def fail(self, note: Text) -> None:
        self.note = note
        self.redraw()

    def redraw(self) -> None:
        """Every part from what is known; a part whose text is unchanged is not touched."""
        self.query_one("#feature-failure", Part).draw(self.note or Text())
        for part_id, text in self.heads().items():
            self.query_one(f"#{part_id}", Part).draw(text)
        self.draw_environments()
        self.query_one("#feature-more", Part).draw(self.more())

    def heads(self) -> dict[str, Text]:
        if self.feature is not None:
            return head_parts(self.feature)
        parts = dict.fromkeys(head_parts(Feature(name=self.feature_name)), Text())
        if self.note is None:  # nothing read yet: say so, not an empty screen
            parts["feature-title"] = Text(f"loading {self.feature_name}…")
        return parts

    def environment_parts(self) -> ComposeResult:
        envs = self.environments()
        yield Part(self.environments_heading(), id="environments-title")
        yield from self.environment_pair(0, envs)
        yield Part(self.no_environment(), id="environments-none")

    def environments_heading(self) -> Text:
        return Text("\nEnvironments", style="bold underline") if self.feature else Text()

    def environments(self) -> list[FeatureEnvironment]:
        return (self.feature.environments or []) if self.feature is not None else []

    def environment_pair(self, start: int, envs: list[FeatureEnvironment]) -> Iterator[Widget]:
        """Each environment: its line (the row's part, then the record's count on the same
        line), and below it the record's strategies. Ids by position: a name may be anything."""
        for i, env in enumerate(envs[start:], start):
            line = Part(environment_line(env), id=f"env-{i}", classes="env-line")
            count = Part(self.count_of(env), id=f"env-{i}-count")
            yield Horizontal(line, count, classes="env-row")
            yield Part(self.detail_of(env), id=f"env-{i}-detail")

    def count_of(self, env: FeatureEnvironment) -> Text:
        return strategy_count(env) if self.complete else Text()

    def detail_of(self, env: FeatureEnvironment) -> Text:
        return environment_detail(env) if self.complete else Text()

    def no_environment(self) -> Text:
        return Text("  —") if self.feature is not None and not self.environments() else Text()

    def draw_environments(self) -> None:
        """Each environment's parts drawn in place. When the record has fewer environments
        than the row, the extra parts are emptied (hidden), not removed: a widget being
        removed keeps its id until it is gone, and another could not take it meanwhile."""
        box = self.query_one("#feature-environments", Vertical)
        envs = self.environments()
        drawn = len(box.query(".env-line"))
        for i in range(drawn):
            env = envs[i] if i < len(envs) else None
            box.query_one(f"#env-{i}", Part).draw(environment_line(env) if env else Text())
            box.query_one(f"#env-{i}-count", Part).draw(self.count_of(env) if env else Text())
            box.query_one(f"#env-{i}-detail", Part).draw(self.detail_of(env) if env else Text())
        if len(envs) > drawn:
            box.mount_all(list(self.environment_pair(drawn, envs)), before="#environments-none")
        box.query_one("#environments-title", Part).draw(self.environments_heading())
        box.query_one("#environments-none", Part).draw(self.no_environment())

    def more(self) -> Text:
        if self.feature is not None and self.complete:
            return more_text(self.feature)
        if self.feature is not None and self.feature.is_archived:
            note = "archived: its row in the archive has no strategies, variants or dependencies"
        elif self.feature is None:
            return Text()
        elif self.note is not None:
            note = f"{NOT_IN_ROW}: not read"
        else:
            note = f"reading {NOT_IN_ROW}…"
        return Text(f"\n{note}", style="dim italic")

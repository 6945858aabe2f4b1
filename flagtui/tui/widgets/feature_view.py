"""A feature's detail drawn in parts, so the list row's fields drawn at Enter stay drawn.

Enter on a row opens the detail at once with what the row knows (name, description, stage,
flags, each environment's state); the full record arrives a round trip later. The detail is
a few widgets, each updated only when its text changes: the row's part (the head) stays as
drawn unless the record says otherwise (e.g. a description patched meanwhile), and what the
row did not have (strategies, variants, tags, dependencies…) is drawn into a part of its own.
Few parts, not one per field, line or environment: each widget costs about a millisecond of
every Enter to mount, style, lay out and draw, more than redrawing a line would save. For the
same reason the view is itself the scrolling container of the detail screen (no container of
its own inside the screen's), and a focus change restyles it alone: no rule styles its parts
by its focus."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rich.text import Text
from textual.containers import VerticalScroll

from flagtui.api.models import Feature, Strategy
from flagtui.rollout_words import (
    constraint_words,
    in_sort_order,
    parameter_words,
    segment_words,
    strategy_heading,
    variant_words,
)
from flagtui.tui.format import counted, enabled_mark, ink, put, when, yes_no
from flagtui.tui.widgets.text import PlainStatic

NOT_IN_ROW = "strategies, variants, tags and dependencies"


class Part(PlainStatic):
    """One part of the detail: redrawn only when its text changes, hidden while empty."""

    def __init__(self, text: Text, *, id: str) -> None:
        super().__init__(text, id=id)
        self.shown = text
        self.display = bool(text.plain)

    def draw(self, text: Text) -> None:
        if text == self.shown:  # same characters and styles: nothing to redraw
            return
        self.shown = text
        self.display = bool(text.plain)
        self.update(text)


def _strategy(out: Text, position: int, s: Strategy, segment_names: Mapping[int, str]) -> None:
    """`1. flexibleRollout “title”`, then its parameters, its conditions (constraints and
    segments: all must hold) and its variants, indented under it."""
    put(out, f"    {position}. ", style="dim" if s.disabled else "")
    put(out, strategy_heading(s), style="dim strike" if s.disabled else "bold")
    if s.disabled:
        put(out, "  disabled: not evaluated", style=ink("yellow", "bold"))
    put(out, "\n")
    detail = "dim" if s.disabled else ""
    params = parameter_words(s)
    if params:
        put(out, f"       {params}\n", style=detail)
    conditions = [constraint_words(c) for c in s.constraints or []]
    conditions += [f"in {segment_words(x, segment_names)}" for x in s.segments or []]
    for n, condition in enumerate(conditions):
        put(out, "       if " if n == 0 else "       and ", style="dim")
        put(out, f"{condition}\n", style=detail)
    for v in s.variants or []:
        put(out, "       variant ", style="dim")
        put(out, f"{variant_words(v)}\n", style=detail)


def strategies_text(
    f: Feature,
    segment_names: Mapping[int, str] | None = None,
    switches: Mapping[str, str] | None = None,
) -> Text:
    """What only the full record says of each environment: who gets the flag now and once
    switched (`switches`: environment → that line, where given), its strategies in the order
    they are evaluated, then the environment's variants. `segment_names`: id → name."""
    names = segment_names or {}
    out = Text()
    put(out, "\nStrategies\n", style="bold underline")
    for env in f.environments or []:
        strategies, variants = in_sort_order(env.strategies), env.variants or []
        put(out, f"  {env.name}", style="bold")
        put(out, f" · {counted(len(strategies), 'strategy', 'strategies')}")
        put(out, f" · {counted(len(variants), 'variant')}\n" if variants else "\n")
        if switches is not None:
            said = switches.get(env.name, "who gets it if switched (t): counting…")
            put(out, f"    {said}\n", style="italic")
        for position, s in enumerate(strategies, 1):
            _strategy(out, position, s, names)
        if variants:
            put(out, "    environment variants\n", style="dim")
        for v in variants:
            put(out, f"      {variant_words(v)}\n")
    if not f.environments:
        put(out, "  —\n")
    return out


def _section(out: Text, title: str, lines: list[str]) -> None:
    put(out, f"\n{title}\n", style="bold underline")
    for line in lines or ["—"]:
        put(out, f"  {line}\n")


def head_text(f: Feature) -> Text:
    """What a list row has the fields for: identity, state, environments (the head)."""
    out = Text()
    put(out, f.name, style="bold")
    put(out, f"  {f.type or ''} · project {f.project or '?'}\n")
    put(out, f.description or "(no description)", style="italic")
    if f.is_archived:
        put(out, f"\nArchived {when(f.archived_at)} · v revives it", style="bold yellow")
    stage = f.lifecycle.stage if f.lifecycle else "—"
    since = f" since {when(f.lifecycle.entered_stage_at)}" if f.lifecycle else ""
    by = f" by {f.created_by.name or f.created_by.username}" if f.created_by else ""
    put(
        out,
        f"\n\nStage {stage}{since}\n"
        f"Stale {yes_no(f.stale)} · "
        f"impression data {yes_no(f.impression_data)} · archived {yes_no(f.is_archived)}\n"
        f"Created {when(f.created_at)}{by}",
    )
    put(out, "\n\nEnvironments", style="bold underline")
    for env in f.environments or []:
        mark, style = enabled_mark(env.enabled)
        kind = f" ({env.type})" if env.type else ""
        put(out, "\n  ")
        put(out, mark, style=style)
        put(out, " ")
        put(out, env.name, style="bold")
        put(out, kind)
    if not f.environments:
        put(out, "\n  —")
    return out


def more_text(
    f: Feature,
    segment_names: Mapping[int, str] | None = None,
    switches: Mapping[str, str] | None = None,
) -> Text:
    """Strategies, variants, tags, dependencies, children, collaborators: the full record's
    alone."""
    out = strategies_text(f, segment_names, switches)
    _section(out, "Variants", [variant_words(v) for v in f.variants or []])
    if f.tags is None:  # neither the flag's payload nor its tag list said
        _section(out, "Tags", ["not known (the server did not say)"])
    else:
        _section(out, "Tags", [f"{t.type}:{t.value}" for t in f.tags])
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


class FeatureView(VerticalScroll):
    """The detail, scrolling (id `feature` in the detail screen): the row's part (`feature-head`:
    identity, state, environments), the rest of the record (`feature-more`), and above them,
    once a read failed, a failure line (hidden again after a read that succeeds). The screen's
    own lines below the record (`tail`, e.g. the recent events) end the record's part.

    `show(feature, complete=False)` for a list row or an archived flag's archive row (no
    strategies, variants or dependencies); `show(feature, segment_names=…)` for the full
    record, its strategies' segments named by id (unnamed ones are "segment #id");
    `show_switches(lines)` says under each environment what `t` would do there; `fail(note)`
    says a read failed, keeping what is drawn; `show_tail(text)` replaces the screen's lines;
    `redraw()` after the clock's zone changed."""

    # the scrollbar's room is kept from the start: the record, taller than the row, would
    # otherwise narrow the text and re-wrap (redraw) the part the row drew
    DEFAULT_CSS = "FeatureView { scrollbar-gutter: stable; } FeatureView Part { height: auto; }"

    def __init__(self, name: str, row: Feature | None = None, *, tail: Text, id: str) -> None:
        self.feature_name = name
        self.tail = tail
        self.feature = row
        self.complete = False
        self.segment_names: Mapping[int, str] = {}
        self.switches: Mapping[str, str] = {}  # environment → what `t` would do there
        self.note: Text | None = None
        # the parts are mounted with the view (not by a compose of its own, which would run
        # a message later): the row is in the screen's first frame
        super().__init__(*self.parts(), id=id)

    def watch_has_focus(self, _has_focus: bool) -> None:
        """Restyles the view alone, not its parts (as Textual does for any widget): no rule
        styles them by the view's focus, and the screen's first focus cost each Enter ~4 ms."""
        self.app.stylesheet.update_nodes([self], animate=True)

    def parts(self) -> Iterator[Part]:
        yield Part(self.head(), id="feature-head")
        yield Part(self.more_and_tail(), id="feature-more")

    def show(
        self,
        feature: Feature,
        *,
        complete: bool = True,
        segment_names: Mapping[int, str] | None = None,
    ) -> None:
        if feature != self.feature:  # what `t` would do was said of another record
            self.switches = {}
        self.feature, self.complete, self.note = feature, complete, None
        self.segment_names = segment_names or {}
        self.redraw()

    def show_switches(self, switches: Mapping[str, str]) -> None:
        """Per environment, who gets the flag now and once switched (for the record shown)."""
        self.switches = switches
        self.query_one("#feature-more", Part).draw(self.more_and_tail())

    def show_tail(self, tail: Text) -> None:
        self.tail = tail
        self.query_one("#feature-more", Part).draw(self.more_and_tail())

    def fail(self, note: Text) -> None:
        self.note = note
        self.redraw()

    def redraw(self) -> None:
        """Every part from what is known; a part whose text is unchanged is not touched."""
        failure = next(iter(self.query("#feature-failure").results(Part)), None)
        if failure is not None:
            failure.draw(self.note or Text())
        elif self.note is not None:  # mounted at the first failure: a widget costs time
            self.mount(Part(self.note, id="feature-failure"), before=0)
        self.query_one("#feature-head", Part).draw(self.head())
        self.query_one("#feature-more", Part).draw(self.more_and_tail())

    def head(self) -> Text:
        if self.feature is not None:
            return head_text(self.feature)
        loading = Text()
        if self.note is None:  # nothing read yet: say so, not an empty screen
            put(loading, f"loading {self.feature_name}…")
        return loading

    def more_and_tail(self) -> Text:
        """One part, not two: a widget costs each Enter about a millisecond."""
        more = self.more()
        return Text.assemble(more, "\n", self.tail) if more and self.tail else more or self.tail

    def more(self) -> Text:
        if self.feature is not None and self.complete:
            return more_text(self.feature, self.segment_names, self.switches)
        if self.feature is not None and self.feature.is_archived:
            note = "archived: its row in the archive has no strategies, variants or dependencies"
        elif self.feature is None:
            return Text()
        elif self.note is not None:
            note = f"{NOT_IN_ROW}: not read"
        else:
            note = f"reading {NOT_IN_ROW}…"
        return Text(f"\n{note}", style="dim italic")

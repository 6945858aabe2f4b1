"""Pick a flag by name: a query box over the server's feature search, ranked fuzzily.

Each pause in typing sends ONE search (debounced; identical searches come from the client's
cache), within the current project when there is one: once the server says its search limit
is spent (Unleash 8.2: 15 a minute per IP), the client answers a project's plain search from its
feature list instead (see `flagtui/api/search_budget.py`). Dismissed with (project, flag name),
or None.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from flagtui.api.feature_query import FeatureQuery
from flagtui.api.models import Feature
from flagtui.tui.actions import FlagKind
from flagtui.tui.format import safe
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.base import FlagtuiModal
from flagtui.tui.typing_pause import after_typing_pause
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.text import PlainLabel, PlainStatic

SHOWN = 30
KIND_WORDS: dict[FlagKind, str] = {
    "live": "flags",
    "archived": "archived flags",
    "completed": "completed flags",
}


def ranked(query: str, features: list[Feature]) -> list[Feature]:
    """Best fuzzy match of the name first (the server matched names and descriptions; this
    orders its answers, keeping them all)."""
    if not query:
        return features
    matcher = Matcher(query)
    return sorted(features, key=lambda f: -matcher.match(f.name))


class FlagPickerModal(FlagtuiModal):
    DEFAULT_CSS = """
    #flag-options { height: auto; max-height: 12; border: none; padding: 0; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Cancel", id="flag-picker.cancel",
                tooltip="Close without choosing"),
        Binding("down", "to_list", "Down", show=False, id="flag-picker.results",
                tooltip="Move to the list of flags"),
    ]  # fmt: skip
    READ_STATUS = "#flag-picker-status"
    query_box = getters.query_one("#flag-query", Input)
    status_line = getters.query_one("#flag-picker-status", PlainStatic)
    option_list = getters.query_one("#flag-options", OptionList)

    def __init__(self, title: str, kind: FlagKind, project: str | None) -> None:
        super().__init__(classes="form")
        self.title_text = title
        self.kind = kind
        self.project = project
        self.found: list[Feature] = []
        self.searched: str | None = None  # the query the list answers
        self.pick_when_found = False

    def compose(self) -> ComposeResult:
        where = f" in project {self.project}" if self.project else ""
        with Vertical(classes="dialog", id="flag-picker"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield InertInput(placeholder=f"search {KIND_WORDS[self.kind]}{where}", id="flag-query")
            yield PlainStatic("searching…", id="flag-picker-status", classes="status-line")
            yield OptionList(id="flag-options")

    def on_mount(self) -> None:
        self.query_box.focus()
        self.search("")

    @on(Input.Changed, "#flag-query")
    def _typed(self, event: Input.Changed) -> None:
        self.after_typing(event.value)

    @after_typing_pause("flag-search")
    def after_typing(self, query: str) -> None:
        self.search(query)

    @work(exclusive=True, group="flag-picker", exit_on_error=False)
    @read
    async def search(self, query: str) -> None:
        query = query.strip()
        page = await self.flagtui.client.features.search(
            FeatureQuery(
                query=query or None,
                project=self.project,
                archived=self.kind == "archived",
                lifecycle=["completed"] if self.kind == "completed" else [],
                limit=SHOWN,
            )
        )
        self.found = ranked(query, page.features)
        self.searched = query
        self.option_list.clear_options()
        self.option_list.add_options(Option(self.label(f)) for f in self.found)
        if self.found:
            self.option_list.highlighted = 0
        shown = len(self.found)
        more = f" (first {shown} of {page.total})" if page.total > shown else ""
        said = f"{page.total} {KIND_WORDS[self.kind]}{more}; enter picks the highlighted one"
        self.status_line.update(said if page.total else f"no {KIND_WORDS[self.kind]} match")
        if self.pick_when_found:
            self.pick_when_found = False
            self.pick(self.option_list.highlighted)

    def label(self, feature: Feature) -> Text:
        """The flag's name, and its project when the search spanned several."""
        if feature.project in (None, self.project):
            return safe(feature.name)
        return Text.assemble(safe(feature.name), "  ", safe(f"({feature.project})", "dim"))

    @on(Input.Submitted, "#flag-query")
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter before the list answers what was typed: search now, pick the best answer."""
        if self.searched == event.value.strip():
            self.pick(self.option_list.highlighted)
            return
        self.workers.cancel_group(self, "flag-search")
        self.pick_when_found = True
        self.search(event.value)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.pick(event.option_index)

    def pick(self, index: int | None) -> None:
        if index is None or not 0 <= index < len(self.found):
            return
        feature = self.found[index]
        project = feature.project or self.project
        if project is not None:
            self.dismiss((project, feature.name))

    def action_to_list(self) -> None:
        self.option_list.focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

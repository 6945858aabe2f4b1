"""A strategy's constraints in a form: the list (Delete removes the highlighted one) and a row
to add one on the server's context fields, with the operators each field allows there
(`constraint_rules.operators_for`). A constraint is checked (`constraint_rules.constraint`) as
it is added: a refusal names the field and keeps what was typed; a field the server does not
list is added with a warning (the SDKs must send it). Before refusing or warning, the editor
reads the server's context fields again (`reread`, the form's): a field created, or legal values
changed, since the form opened are taken without closing it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Button, Checkbox, Input, OptionList

from flagtui.api.constraint_rules import constraint, is_multi_value, operators_for, unlisted
from flagtui.api.errors import FlagtuiError, InvalidArgument
from flagtui.api.models import Constraint
from flagtui.api.rollout_catalog import RolloutCatalog
from flagtui.contract import CONSTRAINT_OPERATORS
from flagtui.rollout_words import constraint_words
from flagtui.tui.format import safe
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine, PlainLabel

NONE = "— none: everyone the strategy reaches —"


class ConstraintList(OptionList):
    BINDINGS = [
        Binding("delete", "remove_constraint", "Delete", id="constraints.remove",
                tooltip="Remove the highlighted constraint from the form (sent with the rest)"),
    ]  # fmt: skip

    def action_remove_constraint(self) -> None:
        editor = next(a for a in self.ancestors if isinstance(a, ConstraintEditor))
        editor.remove_at(self.highlighted)


class ConstraintEditor(Vertical):
    DEFAULT_CSS = """
    ConstraintEditor { height: auto; }
    ConstraintEditor ConstraintList { height: auto; max-height: 6; }
    ConstraintEditor Horizontal { height: auto; }
    ConstraintEditor #c-field { width: 1fr; }
    ConstraintEditor #c-operator { width: 24; }
    ConstraintEditor #c-values { width: 1fr; }
    """
    listed = getters.query_one("#c-list", ConstraintList)
    field_box = getters.query_one("#c-field", InertInput)
    operator_box = getters.query_one("#c-operator", Select)
    values_box = getters.query_one("#c-values", Input)
    inverted_box = getters.query_one("#c-not", Checkbox)
    error_line = getters.query_one("#c-error", MessageLine)

    def __init__(
        self,
        catalog: RolloutCatalog,
        given: Sequence[Constraint],
        reread: Callable[[], Awaitable[RolloutCatalog]] | None = None,
    ) -> None:
        """`reread`: the catalog with the server's context fields read again."""
        super().__init__()
        self.catalog = catalog
        self.constraints = list(given)
        self.reread = reread

    def compose(self) -> ComposeResult:
        yield PlainLabel("Constraints (all must match; Delete removes the highlighted one)")
        yield ConstraintList(id="c-list")
        names = [f.name for f in self.catalog.context_fields]
        with Horizontal():
            suggest = SuggestFromList(names, case_sensitive=True)
            yield InertInput(
                placeholder="context field", id="c-field", compact=True, suggester=suggest
            )
            yield Select[str](self._operators(""), id="c-operator", compact=True, prompt="operator")
        with Horizontal():
            yield Input(
                placeholder="value (IN, NOT_IN, STR_*: comma-separated)",
                id="c-values",
                compact=True,
            )
            yield Checkbox("NOT", id="c-not", compact=True)
            yield Button("Add constraint", id="c-add", compact=True)
        yield MessageLine(id="c-error", classes="error-line")

    def on_mount(self) -> None:
        self._redraw()

    def _operators(self, field_name: str) -> list[tuple[str, str]]:
        field = self.catalog.context_field(field_name)
        ops = operators_for(field, self.catalog.server) if field else CONSTRAINT_OPERATORS
        return [(op, op) for op in ops]

    @on(Input.Changed, "#c-field")
    def _field_typed(self, event: Input.Changed) -> None:
        kept = self.operator_box.value
        options = self._operators(event.value.strip())
        self.operator_box.set_options(options)
        if kept in dict(options):
            self.operator_box.value = kept

    def _redraw(self) -> None:
        self.listed.clear_options()
        if self.constraints:
            self.listed.add_options(safe(constraint_words(c)) for c in self.constraints)
        else:
            self.listed.add_option(NONE)

    def remove_at(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self.constraints):
            del self.constraints[index]
            self._redraw()

    @on(Button.Pressed, "#c-add")
    @on(Input.Submitted, "#c-values")
    def add(self) -> None:
        """The typed constraint, checked against the server's catalog, added to the list."""
        self._add(may_reread=self.reread is not None)

    async def _reread_then_add(self) -> None:
        assert self.reread is not None
        try:
            self.catalog = await self.reread()
        except FlagtuiError as exc:
            self.error_line.update(f"↑ Not added — the context fields could not be read: {exc}")
            return
        names = [f.name for f in self.catalog.context_fields]
        self.field_box.suggester = SuggestFromList(names, case_sensitive=True)
        kept = self.operator_box.value
        self.operator_box.set_options(self._operators(self.field_box.raw_value.strip()))
        if isinstance(kept, str) and kept in dict(self._operators(self.field_box.raw_value)):
            self.operator_box.value = kept
        self._add(may_reread=False)

    def _add(self, *, may_reread: bool) -> None:
        operator = self.operator_box.value
        where = f"constraints[{len(self.constraints)}]"
        if not isinstance(operator, str):
            self.error_line.update(f"↑ Not added — {where}.operator: pick one")
            return
        typed = self.values_box.value
        values = [v.strip() for v in typed.split(",")] if is_multi_value(operator) else [typed]
        given = Constraint(
            context_name=self.field_box.raw_value.strip(),
            operator=operator,
            values=values if is_multi_value(operator) else None,
            value=None if is_multi_value(operator) else typed.strip(),
            inverted=self.inverted_box.value or None,
        )
        checked: Constraint | None = None
        refused: InvalidArgument | None = None
        try:
            checked = constraint(given, self.catalog, where=where)
        except InvalidArgument as exc:
            refused = exc
        stale = self.catalog.context_field(given.context_name) is None or (
            refused is not None and "legal value" in str(refused)
        )
        if may_reread and stale:  # a field created, or its legal values changed, since read
            self.error_line.update("↑ Reading the server's context fields again…")
            self.run_worker(self._reread_then_add(), group="constraint-fields", exclusive=True)
            return
        if checked is None:
            self.error_line.update(f"↑ Not added — {refused}")
            return
        warned = unlisted(checked.context_name, self.catalog)  # accepted, as Unleash does
        self.error_line.update(f"↑ Added — {where}.contextName: {warned}" if warned else "")
        self.constraints.append(checked)
        self.values_box.value = ""
        self.inverted_box.value = False
        self._redraw()

    def pending(self) -> str | None:
        """What was typed in the add row and not added (a form must not drop it silently)."""
        if self.values_box.value.strip():
            return f"{self.field_box.raw_value} {self.values_box.value}".strip()
        return None

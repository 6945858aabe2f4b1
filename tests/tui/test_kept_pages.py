"""The shared table keeps rendered lines and cells across row changes (keyed by what they
show) and adds a page's rows at once: what is drawn must still be the rows of now."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from flagtui.tui.widgets.table import ResourceTable

from .helpers import visible_text


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield ResourceTable([("name", "Name"), ("by", "By")])

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.highlighted.append(event.row_key.value)


def page(prefix: str) -> list[tuple[str, list[str]]]:
    return [(f"{prefix}-{i}", [f"{prefix}-{i}", f"{prefix}-owner"]) for i in range(8)]


async def test_a_page_shown_again_shows_its_own_rows() -> None:
    app = TableApp()
    first, second = page("alpha"), page("bravo")
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        for rows in (first, second, first, second):
            table.set_rows(rows)
            await pilot.pause()
            shown = visible_text(app, "ResourceTable")
            mine, other = rows[0][0].split("-")[0], "bravo" if rows is first else "alpha"
            assert f"{mine}-0" in shown and f"{mine}-owner" in shown
            assert other not in shown
            assert table.selected_key == f"{mine}-0"
        await pilot.press("down")
        await pilot.pause()
        assert table.selected_key == "bravo-1"
        assert app.highlighted[-1] == "bravo-1"


async def test_a_cell_changed_in_place_is_drawn_anew() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows([("k", ["same-key", "before"])])
        await pilot.pause()
        assert "before" in visible_text(app, "ResourceTable")
        table.set_rows([("k", ["same-key", "after!"])])  # same widths: updated in place
        await pilot.pause()
        shown = visible_text(app, "ResourceTable")
        assert "after!" in shown and "before" not in shown
        table.set_rows([("k", ["same-key", "before"])])  # back: from the kept lines
        await pilot.pause()
        shown = visible_text(app, "ResourceTable")
        assert "before" in shown and "after!" not in shown


async def test_a_page_shown_again_reuses_what_its_rows_show(monkeypatch) -> None:
    """Its cells' keys for the kept lines are worked out once per page (not a time: a count of
    the work). Before, every page change worked out all of them again (600 on a PageDown)."""
    from flagtui.tui.widgets import table as table_module

    worked: list[object] = []
    shown = table_module.shown
    monkeypatch.setattr(table_module, "shown", lambda cell: worked.append(cell) or shown(cell))
    app = TableApp()
    first, second = page("alpha"), page("bravo")
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows(first)
        table.set_rows(second)
        await pilot.pause()
        worked.clear()
        table.set_rows(first)
        await pilot.pause()
        assert "alpha-0" in visible_text(app, "ResourceTable")
        assert worked == []


async def test_the_header_is_drawn_once_while_pages_change(monkeypatch) -> None:
    """A count of the work, not a time. DataTable draws its header again, cell by cell through
    Rich, on every change of rows: 6 cells on each PageDown of the features area, before."""
    header_cells: list[int] = []
    draw_cell = DataTable._render_cell

    def counted(self: DataTable[object], row_index: int, *args: object) -> object:
        if row_index == -1:
            header_cells.append(row_index)
        return draw_cell(self, row_index, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(DataTable, "_render_cell", counted)
    app = TableApp()
    first, second = page("alpha"), page("bravo")
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows(first)
        await pilot.pause()
        assert "Name" in visible_text(app, "ResourceTable").splitlines()[0]
        header_cells.clear()
        for rows in (second, first, second):
            table.set_rows(rows)
            await pilot.pause()
            assert rows[0][0] in visible_text(app, "ResourceTable")
        assert header_cells == []


async def test_the_header_follows_its_columns_widths() -> None:
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows(page("alpha"))
        await pilot.pause()
        before = visible_text(app, "ResourceTable").splitlines()[0]
        table.set_rows([("long", ["a-much-longer-name-than-before", "someone"])])
        await pilot.pause()
        after = visible_text(app, "ResourceTable").splitlines()[0]
        table.set_rows(page("alpha"))
        await pilot.pause()
        again = visible_text(app, "ResourceTable").splitlines()[0]
    assert before.index("By") < after.index("By")
    assert after.index("By") == after.index("Name") + len("a-much-longer-name-than-before") + 2
    assert again == before


async def test_a_frame_of_lines_asks_for_the_tables_style_once(monkeypatch) -> None:
    """A count of the work: DataTable's render_line asked for `rich_style` (a walk up the DOM)
    on every line, 19 walks for a page of the features area."""
    from textual.dom import DOMNode
    from textual.geometry import Region

    walks: list[DOMNode] = []
    style_of = DOMNode.rich_style.fget
    monkeypatch.setattr(DOMNode, "rich_style", property(lambda n: walks.append(n) or style_of(n)))
    app = TableApp()
    async with app.run_test(size=(60, 8)) as pilot:
        table = app.query_one(ResourceTable)
        table.set_rows(page("alpha"))
        await pilot.pause()
        table.set_rows(page("bravo"))  # every line to draw anew
        walks.clear()
        lines = table.render_lines(Region(0, 0, table.size.width, table.size.height))
        assert len(lines) == table.size.height > 5
    assert walks.count(table) == 1

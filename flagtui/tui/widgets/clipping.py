"""Cutting a table's cells to their column's width: at the end with `…`, or in the middle
keeping both ends; a column's values cut so that two different ones never read alike where the
width allows it (the shared table, `table.py`, sizes the columns)."""

from __future__ import annotations

from rich.text import Text

SHORT_WORD = 4  # a differing word this short is kept with the word before it
KEPT_END = 10  # a cut past where values differ keeps this much of their end, " (webhook)"


def clip(text: Text, width: int, *, middle: bool, head: int = 8) -> Text:
    """`text` in `width` cells; a `middle` cut keeps `head` characters and as much of the end
    as fits."""
    if text.cell_len <= width:
        return text
    if middle and width > 2:
        tail = text[len(text) - (width - head - 1) :] if width - head - 1 > 0 else Text()
        text = Text.assemble(text[:head], "…", tail, no_wrap=True, end="")
        if text.cell_len <= width:
            return text
    clipped = text.copy()
    clipped.truncate(max(1, width), overflow="ellipsis")
    return clipped


def _shared(a: str, b: str) -> tuple[int, int]:
    """How many characters `a` and `b` share at the start, and at the end (not overlapping)."""
    start = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    room = min(len(a), len(b)) - start
    end = next((i for i in range(room) if a[-1 - i] != b[-1 - i]), room)
    return start, end


def _apart_head(value: str, others: set[str], width: int) -> int | None:
    """The head a middle cut of `value` keeps so that it reads apart from `others` cut alike:
    past the start it shares with any of them (to the end of that word), or short enough that
    the tail reaches back past their shared end. None: no cut in `width` does."""
    starts, ends = zip(*(_shared(value, other) for other in others), strict=True)
    head = max(starts) + 1
    if head <= width - 1:
        while head < width - 1 and value[head - 1 : head + 1].isalnum():
            head += 1  # the whole word that tells them apart ("hook-12", not "hook-1…")
        return head
    tail = max(ends) + 1
    if tail <= width - 1:
        start = len(value) - tail
        while tail < width - 1 and start > 0 and not value[start - 1].isspace():
            tail, start = tail + 1, start - 1  # "… #12", not "…2"
        return width - 1 - tail
    return None


def _around(text: Text, others: set[str], width: int) -> Text | None:
    """`text` in `width` cells keeping its start, the words where it first differs from
    `others` and its end, with a `…` between each (`perf2 stag…hook-4 for…rota (webhook)`):
    for values that differ only far inside, where neither a head nor an end cut reaches. None
    when the differing words alone leave no room for the rest."""
    value = text.plain
    if len(value) != text.cell_len:
        return None  # wide characters: the usual cut
    differs = max(_shared(value, other)[0] for other in others)
    start = differs
    while start > 0 and not value[start - 1].isspace():
        start -= 1  # from the start of that word ("hook-4", not "4")
    end = differs + 1
    while end < len(value) and not value[end].isspace():
        end += 1
    before = value.rfind(" ", 0, max(0, start - 1)) + 1
    if end - start < SHORT_WORD and width - (end - before) - 2 >= 2 * SHORT_WORD:
        start = before  # "number 1", not "1"
    room = width - (end - start) - 2  # the two `…`
    if room < 2 or start == 0 or end >= len(value):
        return None  # no room, or they differ in their first or last word: one cut serves
    tail = min(room - room // 2, len(value) - end)
    head = min(room - tail, start)
    return Text.assemble(
        text[:head], "…", text[start:end], "…", text[len(value) - tail :], no_wrap=True, end=""
    )


def clip_column(cells: list[Text], width: int, *, middle: bool, head: int | None = 8) -> list[Text]:
    """A column's cells in `width`; a `middle` cut keeps `head` characters (at most half the
    width; None: half), but values that cut would make read alike are cut where they differ
    instead: past their shared start, or before their shared end, else keeping the words
    where they differ between the two (`_around`)."""
    head = width // 2 if head is None else min(head, width // 2)
    clipped = [clip(cell, width, middle=middle, head=head) for cell in cells]
    if not middle:
        return clipped
    looks: dict[str, set[str]] = {}
    for cell, shown in zip(cells, clipped, strict=True):
        looks.setdefault(shown.plain, set()).add(cell.plain)
    apart: dict[str, Text] = {}
    by_value = {cell.plain: cell for cell in cells}
    for values in looks.values():
        for value in values if len(values) > 1 else ():
            others = values - {value}
            head = _apart_head(value, others, width)
            around = None
            if head is None or width - 1 - head < KEPT_END:  # the end (a provider) kept too
                around = _around(by_value[value], others, width)
            if around is not None:
                apart[value] = around
            elif head is not None:
                apart[value] = clip(by_value[value], width, middle=True, head=head)
    if not apart:
        return clipped
    return [apart.get(cell.plain, shown) for cell, shown in zip(cells, clipped, strict=True)]

"""The features table's rows of the pages it showed lately, kept by page: the client answers a
search it holds with the same page object (PageUp, PageDown), and a page read again may come
back equal (a return from a detail); either way its rows are not converted, fitted and clipped
again."""

from __future__ import annotations

from textual.cache import LRUCache

from flagtui.api.models import Feature
from flagtui.tui.widgets.table import KEPT_PAGES, Row


class KeptRows:
    def __init__(self) -> None:
        self._of: LRUCache[int, tuple[list[Feature], list[Row]]] = LRUCache(KEPT_PAGES)

    def get(self, features: list[Feature]) -> list[Row] | None:
        kept = self._of.get(id(features))
        if kept is not None and kept[0] is features:
            return kept[1]
        for key in list(self._of.keys()):  # read again: the same features are the same rows
            earlier = self._of.get(key)
            if earlier is not None and earlier[0] == features:
                self._of[id(features)] = features, earlier[1]
                return earlier[1]
        return None

    def keep(self, features: list[Feature], rows: list[Row]) -> None:
        self._of[id(features)] = features, rows

    def clear(self) -> None:
        self._of.clear()

"""A middle column's cuts (issue 23, item 4): values that differ only in the middle, or only
by an id at the end, never read alike once cut; the others keep the usual cut."""

from __future__ import annotations

import pytest
from rich.text import Text

from flagtui.tui.widgets.clipping import clip_column

HOOKS = [f"perf2-hook-{n} dead port (webhook)" for n in (1, 2, 3, 12)]
TWINS = ["Slack alerts (slack) #4", "Slack alerts (slack) #15"]


def cut(values: list[str], width: int, head: int | None = 8) -> list[str]:
    return [t.plain for t in clip_column([Text(v) for v in values], width, middle=True, head=head)]


@pytest.mark.parametrize("width", [14, 18, 22, 29])
def test_values_alike_but_in_the_middle_are_cut_apart(width) -> None:
    shown = cut(HOOKS + TWINS, width)
    assert len(set(shown)) == len(shown), shown
    assert all(len(s) <= width for s in shown)
    assert all(s.startswith(f"perf2-hook-{n}") for s, n in zip(shown, (1, 2, 3, 12), strict=False))
    assert shown[-2].endswith("#4") and shown[-1].endswith("#15")


def test_the_usual_cut_stays_where_it_tells_values_apart() -> None:
    assert cut(["feature-environment-enabled", "feature-environment-disabled"], 20) == [
        "feature-…ent-enabled",
        "feature-…nt-disabled",
    ]
    assert cut(["Datadog events (key revoked) (datadog)"], 30, head=None) == [
        "Datadog events …ked) (datadog)"
    ]


@pytest.mark.parametrize("width", [14, 18, 22, 30, 39])
def test_values_alike_but_far_inside_keep_the_words_that_differ(width) -> None:
    """Past what a head or an end cut reaches (before, all three read `perf2 stagi…a (webhook)`
    at 30): the start, the differing words and the end, with a `…` between each."""
    hooks = [
        f"perf2 staging cluster eu-west hook-{n} for the payments on-call rota (webhook)"
        for n in (1, 2, 3)
    ]
    shown = cut(hooks, width, head=None)
    assert len(set(shown)) == len(shown), shown
    assert all(len(s) <= width for s in shown)
    if width >= 22:
        assert all(f"hook-{n}" in s for s, n in zip(shown, (1, 2, 3), strict=True)), shown
        assert all(s.startswith("perf2") and s.endswith("hook)") for s in shown), shown

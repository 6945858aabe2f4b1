"""`flagtui feature list`: a project's flags, a search and a project's archived flags, as golden
JSON. Streaming pages: tests/cli/test_streaming.py; the search budget:
test_feature_list_search_budget.py."""

from __future__ import annotations

import json

import pytest

from flagtui.cli.commands import feature_list

from .helpers import assert_piped_golden

LISTINGS = {
    "feature-list": ["feature", "list", "--project", "default"],
    "feature-list-search": ["feature", "list", "--search", "checkout", "--type", "release"],
    "feature-list-archived": ["feature", "list", "--project", "default", "--archived"],
}


@pytest.mark.parametrize("name", sorted(LISTINGS))
def test_prints_the_apis_json_when_piped(run, name):
    assert_piped_golden(run, name, *LISTINGS[name])


@pytest.mark.parametrize("output", ["json", "jsonl", "csv", "table"])
def test_a_listing_cut_at_its_page_bound_says_so(run, monkeypatch, output):
    """Issue 23, item 7: `feature list` reads at most MAX_FEATURE_PAGES pages (10,000 flags);
    before, it stopped there and said nothing. The bound made small here (2 pages of 5), so
    the demo's flags meet it."""
    everything = run("feature", "list", "--search", "e", "-o", "json").json
    assert len(everything) > 10
    monkeypatch.setattr(feature_list, "FEATURE_PAGE", 5)
    monkeypatch.setattr(feature_list, "MAX_FEATURE_PAGES", 2)
    result = run("feature", "list", "--search", "e", "-o", output)
    assert result.code == 0
    if output == "json":
        assert len(result.json) == 10
    if output in ("json", "jsonl"):
        said = json.loads(result.err)["answer"]
        assert said == {"shown": 10, "total": len(everything), "cut": "pages"}
    else:
        assert result.line.startswith(
            f"flagtui: feature list: showing the first 10 of {len(everything)} flags"
        )

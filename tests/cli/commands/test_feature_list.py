"""`flagtui feature list`: a project's flags, a search and a project's archived flags, as golden
JSON. Streaming pages: tests/cli/test_streaming.py; the search budget:
test_feature_list_search_budget.py."""

from __future__ import annotations

import pytest

from .helpers import assert_piped_golden

LISTINGS = {
    "feature-list": ["feature", "list", "--project", "default"],
    "feature-list-search": ["feature", "list", "--search", "checkout", "--type", "release"],
    "feature-list-archived": ["feature", "list", "--project", "default", "--archived"],
}


@pytest.mark.parametrize("name", sorted(LISTINGS))
def test_prints_the_apis_json_when_piped(run, name):
    assert_piped_golden(run, name, *LISTINGS[name])

"""Which version serves what: the table the client decides by (real servers prove it in
tests/conformance/test_versions_on_real_unleash.py, on the versions CI runs)."""

from __future__ import annotations

import pytest

from flagtui.api import capabilities as caps
from flagtui.api.models import ServerInfo


def oss(version: str) -> ServerInfo:
    return ServerInfo(version=version, edition="oss")


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("8.2.0", (8, 2, 0)), ("v6.10.1", (6, 10, 1)), ("7.0.0-beta.2", (7, 0, 0)), ("5", (5, 0, 0))],
)
def test_versions_parse(text, parsed):
    assert caps.parse_version(text) == parsed


def test_an_unknown_version_decides_nothing():
    assert caps.parse_version("unknown") is None
    assert caps.event_search_route(oss("unknown")) is None
    assert caps.missing(oss("unknown"), caps.INTEGRATION_DELIVERIES) is None


@pytest.mark.parametrize(
    ("version", "route", "dates"),
    [
        ("5.12.8", "post", ("createdAtFrom", "createdAtTo")),
        ("6.1.0", "post", ("createdAtFrom", "createdAtTo")),
        ("6.2.0", "post", ("from", "to")),
        ("6.10.1", "post", ("from", "to")),
        ("7.0.0", "get", ("from", "to")),
        ("8.2.0", "get", ("from", "to")),
    ],
)
def test_event_search_route_and_date_parameters(version, route, dates):
    assert caps.event_search_route(oss(version)) == route
    assert caps.event_date_params(oss(version)) == dates


@pytest.mark.parametrize(
    ("area", "older", "first"),
    [
        (caps.INTEGRATION_DELIVERIES, "6.0.5", "6.1"),
        (caps.LIFECYCLE, "5.11.2", "5.12"),
        (caps.FEATURE_TYPE_LIFETIME, "5.2.9", "5.3"),
        (caps.EVENT_DATES, "6.0.0", "6.1"),
        (caps.ARCHIVED_FLAGS, "5.12.8", "6.0"),
    ],
)
def test_each_area_names_the_version_it_needs(area, older, first):
    assert caps.missing(oss(older), area) == f"Unleash {first}"
    assert caps.missing(oss(first), area) is None
    assert caps.missing(ServerInfo(version="0.1", sandbox=True), area) is None


def test_a_flagged_area_names_the_version_that_turned_it_on():
    needs = caps.flag_off_needs(oss("5.12.8"), caps.LIFECYCLE)
    assert needs == "Unleash 6.3 (or 5.12 with the area's flag on)"


def test_archived_search_filter_by_version():
    assert not caps.archived_by_lifecycle(oss("7.5.1"))
    assert caps.archived_by_lifecycle(oss("8.2.0"))
    assert caps.archived_by_lifecycle(ServerInfo(version="1.0", sandbox=True))


def test_the_post_event_search_offset_is_an_event_id_only_where_the_contract_rules():
    assert caps.post_search_offset_is_an_event_id(ServerInfo(version="1.0", sandbox=True))
    assert caps.post_search_offset_is_an_event_id(oss("unknown"))
    assert not caps.post_search_offset_is_an_event_id(oss("6.10.1"))
    assert not caps.post_search_offset_is_an_event_id(oss("5.12.8"))


def test_areas_behind_a_flag_only_in_the_versions_between():
    assert caps.behind_a_flag(oss("6.1.3"), caps.INTEGRATION_DELIVERIES)
    assert not caps.behind_a_flag(oss("6.2.0"), caps.INTEGRATION_DELIVERIES)
    assert caps.behind_a_flag(oss("5.4.0"), caps.FEATURE_TYPE_LIFETIME)
    assert not caps.behind_a_flag(oss("5.5.0"), caps.FEATURE_TYPE_LIFETIME)
    assert not caps.behind_a_flag(ServerInfo(version="1.0", sandbox=True), caps.LIFECYCLE)

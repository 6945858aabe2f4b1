"""A flag's rollout in its detail (issue 25, item 1): per environment, its strategies in the
order the SDKs evaluate them, with parameters, constraints in words, segments, strategy
variants and disabled ones marked, then the environment's variants; read in the one request
the detail made before, and server text shown as data."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import httpx

from flagtui.sandbox import SandboxServer
from flagtui.sandbox.demo_rollouts import ENVIRONMENT
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from testkit.pilot import settle

from .helpers import Wrapped, visible_text
from .hostile import HOSTILE, assert_shown_as_data

DEMO = "default"


def demo_rollouts(db_path: Path) -> dict[str, str]:
    """The demo's example rollouts (flagtui/sandbox/demo_rollouts.py): title → flag."""
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "SELECT title, feature FROM strategies WHERE id LIKE 'rollout-example-%'"
        ).fetchall()
    return dict(rows)


async def open_detail(app: FlagtuiApp, pilot: Any, project: str, name: str) -> FeatureDetailScreen:
    screen = FeatureDetailScreen(project, name)
    app.push_screen(screen)
    await settle(app, pilot)
    assert isinstance(app.screen, FeatureDetailScreen)
    return app.screen


async def read_down(app: FlagtuiApp, pilot: Any) -> Wrapped:
    """Everything the detail shows, page by page as a person scrolls it (PageDown)."""
    seen = [visible_text(app, "#feature")]
    scroller = app.screen.query_one("#feature")
    while scroller.scroll_y < scroller.max_scroll_y:
        await pilot.press("pagedown")
        await settle(app, pilot)
        seen.append(visible_text(app, "#feature"))
    return Wrapped("\n".join(seen))


async def test_the_demos_rollouts_are_shown_in_words_at_once(make_app, sandbox) -> None:
    """At 120x40 each example's production rollout is on the first screen, and opening the
    detail costs the flag, its recent events and the segments' names (read beside the flag)."""
    rollouts = demo_rollouts(sandbox.db_path)
    ten, beta, split = (
        rollouts["10% of production"],
        rollouts["Beta tenants"],
        rollouts["A/B split"],
    )
    expected = {
        ten: [
            f"{ENVIRONMENT} · 1 strategy",
            "1. flexibleRollout “10% of production”",
            f"rollout 10% · stickiness default · groupId {ten}",
        ],
        beta: [
            "1. flexibleRollout “Beta tenants”",
            f"rollout 100% · stickiness default · groupId {beta}",
            "if tenantId is one of acme-beta, globex-beta",
        ],
        split: [
            "1. flexibleRollout “A/B split”",
            "variant control 50% · stickiness userId · payload string control",
            "variant treatment 50% · stickiness userId · payload string treatment",
        ],
    }
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        for name, lines in expected.items():
            sent = app.client.requests_sent
            await open_detail(app, pilot, DEMO, name)
            assert app.client.requests_sent - sent == 4  # and the project's environments (t)
            shown = visible_text(app, "#feature")
            for line in lines:
                assert line in shown, (name, line, shown)
            await pilot.press("escape")
            await settle(app, pilot)


async def test_at_80x24_the_first_environment_is_on_the_first_screen(make_app, sandbox) -> None:
    beta = demo_rollouts(sandbox.db_path)["Beta tenants"]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        detail = await open_detail(app, pilot, DEMO, beta)
        feature = detail.feature
        assert feature is not None and feature.environments
        first = feature.environments[0]
        first_strategy = (first.strategies or [])[0]
        shown = visible_text(app, "#feature")
        assert "Strategies" in shown and f"{first.name} · " in shown
        assert f"1. {first_strategy.name}" in shown
        everything = await read_down(app, pilot)
        assert "if tenantId is one of acme-beta, globex-beta" in everything
        assert "Collaborators" in everything


def _route_flag(sandbox: SandboxServer) -> str:
    """A flag made through the sandbox's routes: three production strategies added out of
    order (sortOrder 2, 0, 1), the one first in order disabled, conditions of each kind,
    segments 1 and 2, a strategy variant; and environment variants."""
    name = f"rollout-{uuid.uuid4().hex[:6]}"
    base = f"/api/admin/projects/{DEMO}/features/{name}/environments/production"
    strategies = [
        {
            "name": "default",
            "title": "last",
            "sortOrder": 2,
            "constraints": [
                {"contextName": "appVersion", "operator": "SEMVER_GTE", "value": "1.2.0"},
                {
                    "contextName": "email",
                    "operator": "STR_ENDS_WITH",
                    "values": ["@acme.example"],
                    "caseInsensitive": True,
                    "inverted": True,
                },
            ],
            "segments": [1, 2],
        },
        {
            "name": "flexibleRollout",
            "title": "first",
            "sortOrder": 0,
            "disabled": True,
            "parameters": {"rollout": "0", "stickiness": "sessionId", "groupId": "g"},
        },
        {
            "name": "userWithId",
            "sortOrder": 1,
            "parameters": {"userIds": "u-1,u-2"},
            "constraints": [{"contextName": "userId", "operator": "IN", "values": ["u-1", "u-2"]}],
            "variants": [
                {"name": "on", "weight": 1000, "weightType": "variable", "stickiness": "default"}
            ],
        },
    ]
    # Real Unleash refuses new environment variants (deprecated) to a flag that has none, as
    # the sandbox does: they are written to its store, as an older flag still has them.
    variants = [
        {"name": "blue", "weight": 250, "weightType": "fix", "stickiness": "userId"},
        {"name": "green", "weight": 750, "weightType": "variable", "stickiness": "userId"},
    ]
    headers = {"Authorization": sandbox.admin_token}
    with httpx.Client(base_url=sandbox.url, headers=headers) as admin:
        created = admin.post(f"/api/admin/projects/{DEMO}/features", json={"name": name})
        assert created.status_code == 201, created.text
        for body in strategies:
            added = admin.post(f"{base}/strategies", json=body)
            assert added.status_code == 200, added.text
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE feature_environments SET variants = ? WHERE feature = ?"
            " AND environment = 'production'",
            (json.dumps(variants), name),
        )
    return name


async def test_order_disabled_conditions_segments_and_variants(make_app, sandbox) -> None:
    name = _route_flag(sandbox)
    app = make_app()
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, DEMO, name)
        shown = visible_text(app, "#feature-more")
        production = shown[shown.index("production · 3 strategies · 2 variants") :]
        order = ["1. flexibleRollout “first”", "2. userWithId", "3. default “last”"]
        assert [production.index(s) for s in order] == sorted(production.index(s) for s in order)
        assert "“first”  disabled: not evaluated" in production
        assert "rollout 0% · stickiness sessionId · groupId g" in production
        assert "userIds u-1,u-2\n       if userId is one of u-1, u-2" in production
        assert "variant on 100% · stickiness default" in production
        assert "if appVersion ≥ 1.2.0 (semver)" in production
        assert "and not (email ends with @acme.example (case-insensitive))" in production
        first, second = _segment_names(sandbox, 1, 2)  # read by the detail beside the flag
        assert f"and in segment {first}\n       and in segment {second}" in production
        assert "environment variants" in production
        assert "blue 25% (fixed) · stickiness userId" in production
        assert "green 75% · stickiness userId" in production


def _segment_names(sandbox: SandboxServer, *ids: int) -> list[str]:
    with sqlite3.connect(sandbox.db_path) as conn:
        named = dict(conn.execute("SELECT id, name FROM segments").fetchall())
    return [named[i] for i in ids]


async def test_hostile_strategy_text_is_shown_as_data(make_app) -> None:
    """The hostile project's strategies carry markup, OSC 52, a title escape and BiDi overrides
    in their title, a parameter and a constraint's values."""
    app = make_app()
    async with app.run_test(size=(120, 80)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, "hostile", "hx-markup")
        shown = visible_text(app, "#feature-more")
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
        assert "1. flexibleRollout “hx-strategy [/x] Data [/pipeline] [bold]BOLD[/bold]" in shown
        assert "rollout 50% · stickiness default · groupId hx-param [/x] Data" in shown
        assert "↵second line→after a tab [/x]" in shown  # one line, not two
        assert "if userId is one of [/x] Data [/pipeline] [bold]BOLD[/bold]" in shown
        assert "␛]52;c;" in shown and "<U+202E>txt.exe" in shown
        assert app.is_running


async def test_an_unknown_operator_and_text_the_markup_parser_would_eat(make_app, sandbox) -> None:
    """The payload written straight into the sandbox's store (its routes refuse an unknown
    operator): a newer server's operator is said by its name, its values as data."""
    name = _route_flag(sandbox)
    constraint = json.dumps([{"contextName": "x", "operator": "STR_FUZZY", "values": [HOSTILE]}])
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE strategies SET constraints = ? WHERE feature = ? AND name = 'userWithId'",
            (constraint, name),
        )
    app = make_app()
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, DEMO, name)
        shown = visible_text(app, "#feature-more")
        assert "if x STR_FUZZY ␛]52;c;aGFja2Vk␛\\[/x]" in shown
        assert_shown_as_data(shown)


async def test_a_demo_flags_segment_is_shown_by_name(make_app, sandbox) -> None:
    """The detail reads the segments' names itself (GET /api/admin/segments)."""
    with sqlite3.connect(sandbox.db_path) as conn:
        flag, project, ids = conn.execute(
            "SELECT s.feature, f.project, s.segments FROM strategies s"
            " JOIN features f ON f.name = s.feature"
            " WHERE s.segments != '[]' AND f.archived_at IS NULL ORDER BY s.feature LIMIT 1"
        ).fetchone()
        segment = json.loads(ids)[0]
    (name,) = _segment_names(sandbox, segment)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, project, flag)
        everything = await read_down(app, pilot)
        assert f"in segment {name}" in everything
        assert f"segment #{segment}" not in everything

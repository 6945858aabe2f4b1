"""`t` on a flag with no strategy in an environment: switched on, the flag gets the project
environment's default strategy (a 30 % rollout here), and the picker and the toast say that
share, as the server then serves it to an SDK of the environment (`served_share`)."""

from __future__ import annotations

import secrets

from served_share import served

from flagtui.api import AdminClient
from flagtui.api.models import Strategy
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.widgets.choice_picker import ChoicePicker
from testkit.pilot import settle

from .helpers import screen_text, toast_text
from .rollout_flows import DEMO, open_detail

DEV = "development"
USERS = 1_000


async def a_flag_and_a_30_percent_default(client: AdminClient) -> str:
    name = f"t-default-{secrets.token_hex(3)}"
    await client.features.create(DEMO, name)
    parameters = {"rollout": "30", "stickiness": "default", "groupId": ""}
    strategy = Strategy(name="flexibleRollout", constraints=[], parameters=parameters)
    plan = await client.default_strategies.plan_set(DEMO, DEV, strategy)
    await client.default_strategies.send(plan)
    return name


async def test_t_says_the_share_the_projects_default_strategy_gives(
    make_app, client: AdminClient, sandbox
) -> None:
    name = await a_flag_and_a_30_percent_default(client)
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await open_detail(app, pilot, name)
        await pilot.press("t")
        await settle(app, pilot)
        assert isinstance(app.screen, ChoicePicker), screen_text(app)
        (index,) = [i for i, label in enumerate(app.screen.labels) if label.startswith(DEV)]
        label = app.screen.labels[index]
        counted = label.rsplit(" · ", 1)[1]  # `0 → n of 1,000`
        assert counted.startswith("0 → ") and counted.endswith(" of 1,000"), label
        n = int(counted[len("0 → ") : -len(" of 1,000")].replace(",", ""))
        assert 240 < n < 360, label  # about 30 %, not Unleash's own 100 %
        assert counted in screen_text(app)  # drawn at 80 columns
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(app, pilot)
        said = f"{name} switched on in {DEV}; who gets it: 0 → {n:,} of 1,000 synthetic userIds"
        assert said in toast_text(app)
    assert served(sandbox, name, users=USERS, environment=DEV)[0] == n

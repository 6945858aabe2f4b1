"""Make screenshots/*.svg: every area of the TUI on the sandbox's deterministic demo data.

    .venv/bin/python -m scripts.screenshots          # 120x40, plus 80x24 of the main areas

The sandbox runs on a free loopback port; the header shows a fixed URL so the pictures do not
change from run to run. No token appears in them (the secret scan checks screenshots/ too).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from flagtui.api import AdminClient
from flagtui.archive.demo import DemoCollector
from flagtui.archive.location import sqlite_url
from flagtui.config import Profile
from flagtui.sandbox import SandboxServer, create_database
from flagtui.sandbox.rate_limit import PLENTY
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.areas import AREAS
from flagtui.tui.triage_view import TimeWindow
from testkit.pilot import settle  # the Pilot tests' own wait for idle

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
SHOWN_URL = "http://127.0.0.1:4242"
PROJECT = "payments"
SMALL = ("features", "failures", "events")


async def shoot(
    server: SandboxServer,
    area: str,
    size: tuple[int, int],
    keys: list[str],
    name: str,
    state_dir: Path,
    archive_url: str | None = None,
    shown_url: str = SHOWN_URL,
) -> None:
    TimeWindow.chosen = None  # each picture starts at its source's default window
    state = state_dir / f"{name}.json"
    state.write_text(json.dumps({"demo": {"area": area, "project": PROJECT}}))
    client = AdminClient(server.url, server.admin_token, profile="demo")
    profile = Profile(name="demo", url=shown_url, archive_url=archive_url)
    app = FlagtuiApp(client, profile, state_path=state)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot)
        app.save_screenshot(filename=f"{name}.svg", path=str(OUT))
    await client.aclose()


async def shoot_archive(tmp: Path) -> None:
    """The failures view and the integrations' sparklines on a delivery archive with a week of
    history, as `flagtui demo` shows them: present-day data, so these pictures change daily."""
    db, archive = tmp / "week.db", tmp / "week-archive.db"
    create_database(db, size="demo", now=None)
    with SandboxServer(db, search_limit=PLENTY) as server:
        collector = DemoCollector(sqlite_url(archive), server.url, server.admin_token).start()
        try:
            collector.first_poll.wait(timeout=60)
        finally:
            collector.stop()
        # The archive is keyed to the server it reads, so the header names the real port here.
        url = sqlite_url(archive)
        for name, area, keys in [
            ("failures-archive-week", "failures", ["w"]),
            ("failures-archive-grouped", "failures", ["w", "equals_sign"]),
            ("integrations-archive-week", "integrations", ["w"]),
        ]:
            await shoot(server, area, (120, 40), keys, name, tmp, url, server.url)


async def main() -> int:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        create_database(db, size="demo")
        with SandboxServer(db, search_limit=PLENTY) as server:
            for area in AREAS:
                await shoot(server, area.name, (120, 40), [], area.name, Path(tmp))
                if area.name in SMALL:
                    await shoot(server, area.name, (80, 24), [], f"{area.name}-80x24", Path(tmp))
            await shoot(server, "features", (120, 40), ["enter"], "feature-detail", Path(tmp))
            await shoot(server, "failures", (120, 40), ["enter"], "delivery-detail", Path(tmp))
            await shoot(
                server, "failures", (120, 40), ["equals_sign"], "failures-grouped", Path(tmp)
            )
            await shoot(server, "events", (120, 40), ["enter"], "event-diff", Path(tmp))
            await shoot(server, "features", (80, 24), ["t"], "toggle-80x24", Path(tmp))
        await shoot_archive(Path(tmp))
    print(f"screenshots written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

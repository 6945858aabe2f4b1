"""End to end with the real tools: `flagtui collect --metrics` on the sandbox, a real
Prometheus scraping it with contrib/prometheus/flagtui-rules.yml, a real Alertmanager posting
to a webhook receiver here. A webhook to a dead port fires an alert naming it within 90 s of
its first failed delivery, which resolves once the integration is disabled; stopping the
collector fires the blind-collector alert. (The rules' own unit tests:
contrib/prometheus/flagtui-rules.test.yml, run by `promtool test rules` here and in CI.)"""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime

import pytest

from tests.skip_reasons import NO_PROMETHEUS

from ..processes import command_env
from .alerting_stack import RULES, Receiver, Stack, binaries, free_port, wait_for

TOOLS = binaries()
needs_prometheus = pytest.mark.skipif(TOOLS is None, reason=NO_PROMETHEUS)
FLAG = "/api/admin/projects/default/features/admin-async-emails"


def at(text: str) -> datetime:
    """An RFC 3339 time, as Alertmanager and the sandbox write them (nanoseconds cut)."""
    head, dot, rest = text.replace("Z", "+00:00").partition(".")
    if dot:
        digits = "".join(c for c in rest if c.isdigit())
        rest = digits[:6] + rest[len(digits) :]
    return datetime.fromisoformat(head + dot + rest)


@needs_prometheus
def test_promtool_checks_the_rules_and_runs_their_tests():
    assert TOOLS is not None
    for verb, path in (("check", RULES), ("test", RULES.with_name("flagtui-rules.test.yml"))):
        done = subprocess.run(
            [TOOLS["promtool"], verb, "rules", str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "SUCCESS" in done.stdout


@needs_prometheus
@pytest.mark.slow
@pytest.mark.timeout(900)  # waits for events: the blind alert alone takes 90 s
def test_a_dead_webhook_fires_and_resolves_and_a_stopped_collector_is_blind(
    cli_env, sandbox, server, tmp_path
):
    assert TOOLS is not None
    port = free_port()
    env = command_env(cli_env, sandbox) | {"XDG_DATA_HOME": str(cli_env / "data")}
    argv = [sys.executable, "-m", "flagtui", "collect", "--interval", "1"]
    collector = subprocess.Popen(
        [*argv, "--metrics", f"127.0.0.1:{port}"], env=env, stderr=subprocess.DEVNULL
    )
    receiver = Receiver()
    stack = Stack(TOOLS, tmp_path, f"127.0.0.1:{port}", receiver.url)
    try:
        dead = free_port()
        webhook = {
            "provider": "webhook",
            "description": "metrics e2e: a dead port",
            "enabled": True,
            "parameters": {"url": f"http://127.0.0.1:{dead}/hook"},
            "events": ["feature-metadata-updated"],
        }
        created = server.post("/api/admin/addons", json=webhook)
        assert created.status_code == 201, created.text
        hook = str(created.json()["id"])
        # Prometheus holds its failures at 0 before the first one (the collector saw it).
        series = f'flagtui_integration_deliveries_total{{integration_id="{hook}",state="failed"}}'
        wait_for("zero failures scraped", lambda: stack.query(f"{series} == 0"))

        change = [{"op": "replace", "path": "/description", "value": "e2e"}]
        server.patch(FLAG, json=change).raise_for_status()
        events = server.get(f"/api/admin/addons/{hook}/events").json()["integrationEvents"]
        (first,) = events
        assert first["state"] == "failed"

        firing = wait_for(
            "alert for the dead webhook",
            lambda: receiver.find(
                "firing", alertname="FlagtuiIntegrationFailing", integration_id=hook
            ),
        )
        assert firing["labels"]["description"] == webhook["description"]
        assert firing["labels"]["server"] == sandbox.url
        assert (
            f'"{webhook["description"]}" (id {hook}, webhook)' in firing["annotations"]["summary"]
        )
        assert f"flagtui failures --integration {hook} --since" in firing["annotations"]["runbook"]
        fired_after = at(firing["startsAt"]) - at(first["createdAt"])
        assert fired_after.total_seconds() <= 90, fired_after

        off = server.put(f"/api/admin/addons/{hook}", json={**webhook, "enabled": False})
        assert off.status_code == 200, off.text
        resolved = wait_for(
            "resolved notification",
            lambda: receiver.find(
                "resolved", alertname="FlagtuiIntegrationFailing", integration_id=hook
            ),
        )
        assert resolved["labels"] == firing["labels"]
        listed = server.get("/api/admin/addons").json()["addons"]
        assert [a["enabled"] for a in listed if str(a["id"]) == hook] == [False]  # kept

        assert not receiver.find("firing", alertname="FlagtuiCollectorBlind")
        collector.terminate()
        assert collector.wait(60) == 0
        blind = wait_for(
            "blind-collector alert",
            lambda: receiver.find("firing", alertname="FlagtuiCollectorBlind", server=sandbox.url),
        )
        assert sandbox.url in blind["annotations"]["summary"]
        assert blind["labels"]["severity"] == "critical"
    except AssertionError:
        print(stack.log("prometheus"), stack.log("alertmanager"), receiver.alerts, sep="\n")
        raise
    finally:
        if collector.poll() is None:
            collector.kill()
            collector.wait()
        stack.stop()
        receiver.close()

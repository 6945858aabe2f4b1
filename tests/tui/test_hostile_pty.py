"""Every area, detail, form and dialog of flagtui, in a real terminal, on the sandbox's hostile
project: no crash, no control sequence from server text in the output, title and clipboard
untouched. One process walks every screen (see `hostile_pty`); `y` is never pressed, since
flagtui's own copy key writes the clipboard with OSC 52."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hostile_pty import Walk, open_flagtui

CTRL_P = "\x10"


def test_every_screen_on_hostile_data_in_a_real_terminal(sandbox: Any, tmp_path: Path) -> None:
    with open_flagtui(
        sandbox.url, sandbox.admin_token, tmp_path, area="features", project="hostile"
    ) as term:
        walk = Walk(term)
        walk.step("features of the hostile project", [], "hx-markup", "hx-plain", "n/p Page")
        walk.step("a feature's detail", ["j", "j", "j", "enter"], "hx-desc-markup", "y Copy")
        walk.step("the patch form", ["e"], "Patch hx-markup", "Review & send")
        walk.step("back to the detail", ["escape"], "y Copy", gone="Review & send")
        walk.step("the environment picker", ["t"], "on or off in which environment?")
        walk.step("the production question", ["down", "enter"], "in production?", "Switch")
        walk.step("production question closed", ["escape"], "y Copy", gone="in production?")
        walk.step("back to the features", ["escape"], "n/p Page", gone="y Copy")
        walk.step("feature types", ["2"], "hx-type", "e Edit")
        walk.step("the lifetime dialog", ["G", "enter"], "Lifetime of hx-type-name")
        walk.step("lifetime dialog closed", ["escape"], "e Edit", gone="Lifetime of")
        walk.step("environments", ["3"], "environments linked to hostile")
        walk.step("the remove dialog", ["d"], "Remove development from hostile?")
        walk.step("remove dialog closed", ["escape"], "d Remove", gone="Remove development")
        walk.step("the link picker", ["l"], "Link which environment to hostile?")
        walk.step("link picker closed", ["escape"], "l Link", gone="Link which environment")
        walk.step("integrations", ["4"], "hx-addon", "Trend", "⏎ Open")
        walk.step("an integration's deliveries", ["G", "enter"], "hx-state-", "f Failed")
        walk.step("a delivery's detail", ["enter"], "to hx-addon", "m Reveal URLs")
        walk.step("back to the deliveries", ["escape"], "f Failed", gone="m Reveal URLs")
        walk.step("back to the integrations", ["escape"], "Trend", "⏎ Open", gone="f Failed")
        walk.step("failures", ["5"], "window all (w)", "(datadog)", "r Reload")
        walk.step("grouped failures", ["="], "groups", "First seen")
        walk.step("a group's deliveries", ["enter"], "esc Back", "(w) · 2 failures")
        walk.step("a failure's detail", ["enter"], "to hx-addon", "m Reveal URLs")
        walk.step("back to the group", ["escape"], "esc Back", gone="m Reveal URLs")
        walk.step("back to the groups", ["escape"], "First seen", gone="esc Back")
        walk.step("the failures again", ["="], "r Reload", gone="First seen")
        walk.step("event log", ["6"], "hx-user", "50/100")
        walk.step("an event's detail", ["enter"], "preData", "y Copy")
        walk.step("back to the event log", ["escape"], "50/100", gone="y Copy")
        walk.step("users", ["7"], "search users")
        walk.step("user search", ["s", "hx-", "enter"], "3 users match")
        walk.step("project access", ["8"], "users and groups hold project roles", "hx-group")
        walk.step("change requests", ["9"], "change requests in hostile", "hx-cr-title-2")
        walk.step("a change request's detail", ["enter"], "needs 1 approval", "esc Back")
        walk.step("back to the change requests", ["escape"], "d Delete", gone="esc Back")
        walk.step("the delete dialog", ["d"], "Delete change request #")
        walk.step("delete dialog closed", ["escape"], "d Delete", gone="Delete change request")
        walk.step("help", ["?"], "Keys (Esc closes")
        walk.step("help closed", ["escape"], "d Delete", gone="Keys (Esc closes")
        walk.step("the command palette", [CTRL_P], "Search for commands")
        walk.step("palette closed", ["escape"], "d Delete", gone="Search for commands")
        term.send("q")
        assert term.wait_exit(10) == 0
        term.settle(quiet=0.2, limit=3)
        walk.check("after quitting", running=False)

"""`flagtui feature show PROJECT NAME --web`: the flag's page of Unleash's web UI
(/projects/{project}/features/{name} under the profile's URL) opened with the browser BROWSER
names, asking the server nothing; over SSH with no display nor BROWSER, the URL printed and
why it was not opened."""

from __future__ import annotations

import sys

import pytest
from gateway import Gateway

from flagtui.web_ui import flag_url

OPENED = "import sys, pathlib; pathlib.Path(sys.argv[1]).write_text(sys.argv[2])"


@pytest.fixture
def gateway(sandbox, monkeypatch):
    with Gateway(sandbox.url) as gateway:
        monkeypatch.setenv("UNLEASH_URL", gateway.url)
        yield gateway


def test_web_opens_the_flags_page_in_the_browser_and_asks_the_server_nothing(
    run, gateway, tmp_path, monkeypatch
):
    (tmp_path / "browser.py").write_text(OPENED)
    seen = tmp_path / "seen"
    monkeypatch.setenv("BROWSER", f"{sys.executable} {tmp_path / 'browser.py'} {seen} %s")
    result = run("feature", "show", "default", "admin-async-emails", "--web")
    assert result.code == 0, result.err
    url = f"{gateway.url}/projects/default/features/admin-async-emails"
    assert result.json == {"url": url, "opened": True}
    assert seen.read_text() == url
    assert gateway.received == []


def test_over_ssh_without_a_browser_the_url_is_printed_and_why(run, gateway, monkeypatch):
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SSH_CONNECTION", "192.0.2.1 50000 192.0.2.2 22")
    result = run("feature", "show", "default", "admin-async-emails", "--web", "-o", "table")
    assert result.code == 0, result.err
    assert result.out == f"{gateway.url}/projects/default/features/admin-async-emails\n"
    assert result.line == (
        "flagtui: not opened: this is an SSH session with no display and no BROWSER set: open"
        " it on your machine"
    )


def test_the_url_escapes_each_part_and_keeps_the_profiles_path():
    assert flag_url("https://u.example/unleash/", "my project", "a/b") == (
        "https://u.example/unleash/projects/my%20project/features/a%2Fb"
    )

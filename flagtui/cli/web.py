"""Opening a web UI page from a command (`feature show --web`), with Python's webbrowser: the
browser `BROWSER` names, else the system's. Over SSH with no display and no `BROWSER` nothing
is opened (a browser there would start on the server, or take over the terminal): the URL is
printed, and why, for the admin to open on their own machine."""

from __future__ import annotations

import os

SSH = ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY")
DISPLAYS = ("DISPLAY", "WAYLAND_DISPLAY")


def open_in_browser(url: str) -> str | None:
    """Open `url`; None once a browser took it, else why not."""
    # Here, not at the top: it loads subprocess and shlex, for this option only
    import webbrowser

    named = [b for b in os.environ.get("BROWSER", "").split(os.pathsep) if b.strip()]
    over_ssh = any(os.environ.get(name) for name in SSH)
    if over_ssh and not named and not any(os.environ.get(name) for name in DISPLAYS):
        return "this is an SSH session with no display and no BROWSER set: open it on your machine"
    try:
        browsers = [webbrowser.get(b) for b in named] if named else [webbrowser.get()]
    except webbrowser.Error:
        return "no web browser found here (set BROWSER to one)"
    for browser in browsers:
        try:
            if browser.open(url):
                return None
        except OSError:
            continue
    return "the web browser did not start (set BROWSER to one that does)"

"""`flagtui` without a subcommand: run the app, which resolves the profile and its token once
its first frame is on screen.

A start whose inputs are those of an earlier one (`start_hint.py`) draws that profile's cached
rows first; any other start on a terminal draws the header and "connecting…" (its profile as
the config names it, unvalidated), and, when it knows the page it will show, reads that page
early beside the app (`early_read.py`: forked first thing, before the start is decided in
`start_plan.py`). Then, inside the app, the config is
validated, the token read and the client made. Without a terminal (nothing to draw on), and
for a profile whose token comes from a token_command (it may ask the terminal for a
passphrase), it validates first. Either way a problem with the config or credentials is one
line naming the file and the fix (exit 2), said once the terminal is back; Ctrl-C or SIGTERM
while a token_command runs stops it and exits 130 or 143, without a traceback.
"""

from __future__ import annotations

import sys

# typing's TYPE_CHECKING without importing typing: this module is imported before the early
# read forks (`run_tui`), so whatever it imports delays the fork.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from flagtui.config import ConfigError, Interrupted
    from flagtui.tui.early_read import EarlyRead
    from flagtui.tui.opening import Opened
    from flagtui.tui.start_hint import StartInputs
    from flagtui.tui.start_plan import StartPlan


def open_profile(args: argparse.Namespace, inputs: StartInputs | None) -> Opened:
    """The config validated, the profile chosen, its token read and its client made; raises
    ConfigError or Interrupted."""
    from flagtui.config import load_config, make_client, resolve_token, select_profile
    from flagtui.row_cache_file import default_cache_dir
    from flagtui.tui.opening import Opened
    from flagtui.tui.start_hint import remember

    config = load_config()
    if config.keymap:
        from flagtui.tui.keymap import check_keymap

        check_keymap(config.keymap, config.path)
    profile = select_profile(config, args.profile)
    client = make_client(profile, resolve_token(profile))
    if inputs is not None:
        remember(default_cache_dir(), inputs, profile.name)
    return Opened(client, profile, config.keymap)


def said(exc: ConfigError | Interrupted) -> int:
    from flagtui.config import Interrupted
    from flagtui.tui.format import clean

    print(f"flagtui: {clean(exc)}", file=sys.stderr)
    return exc.exit_code if isinstance(exc, Interrupted) else 2


def run_tui(args: argparse.Namespace) -> int:
    # A cold start's early read forks first, before the start is decided: the decision's imports
    # and file reads (0.03 to 0.04 s) then run in the child too, beside this process, and the
    # child goes on only where this process keeps it (early_read.py).
    from flagtui.tui.early_read import start_early_read

    args.profile = getattr(args, "profile", None)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    early = start_early_read(args.profile) if terminal else None
    try:
        from flagtui.tui.interpreter import prompt_frames
        from flagtui.tui.start_plan import plan_start

        prompt_frames()
        plan = plan_start(args.profile, terminal)
        if early is not None and plan.early_project is None:
            early.stop()  # the child, deciding alike, reads nothing either
            early = None
        return _run(args, plan, early)
    finally:
        if early is not None:
            early.stop()


def _run(args: argparse.Namespace, plan: StartPlan, early: EarlyRead | None) -> int:
    failed: list[ConfigError | Interrupted] = []

    def opener() -> Opened | None:
        """None when the config or the token fails (`failed` keeps why)."""
        from flagtui.config import ConfigError, Interrupted

        try:
            return open_profile(args, plan.inputs)
        except (ConfigError, Interrupted) as exc:
            failed.append(exc)
            return None

    from flagtui.tui.app import FlagtuiApp

    if plan.validate_first:
        # Validated first, said before the app: with no terminal nothing is drawn; a
        # token_command may ask the terminal for a passphrase before the app takes it.
        opened = opener()
        if opened is None:
            return said(failed[0])
        app = FlagtuiApp(opened.client, opened.profile)
        app.set_keymap(opened.keymap)
    elif plan.expected is not None:  # the cached rows first; validated once they are on screen
        app = FlagtuiApp(None, plan.expected, opener=opener)
    else:  # the header and "connecting…" first; the early read's rows, if it has them
        app = FlagtuiApp(None, plan.named, opener=opener, cached=False, early=early)
    app.run()
    return said(failed[0]) if failed else app.return_code or 0

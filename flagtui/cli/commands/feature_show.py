"""`flagtui feature show`: one flag, in full. JSON is the API's record; a table adds its rollout
per environment in words (strategies in order, constraints, segments by name, variants,
disabled ones marked), reading each environment's variants when the record leaves them out
(real Unleash's detail does). `--web` opens the flag's page in Unleash's web UI instead (no
request: the page says what the server has)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from flagtui.api import FlagtuiError
from flagtui.cli.output import Printer
from flagtui.cli.rollout_output import rollout_lines, segment_names
from flagtui.cli.session import scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient


class WebOption(argparse.Action):
    """--web: nothing to read from the server, so no connecting first."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **{**kwargs, "nargs": 0, "default": False})

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        namespace.web = True
        namespace.connect_first = False


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_show)
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument(
        "--web", action=WebOption,
        help="open the flag's page in Unleash's web UI (over SSH with no browser: print its URL)",
    )  # fmt: skip


async def feature_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if args.web:
        return show_on_the_web(client, out, args)
    # Here, not at the top: it loads httpx and pydantic
    from flagtui.api.rollouts import in_order

    feature = await client.features.get(args.project, args.name)
    out.one(feature)
    if out.is_json or out.format == "csv" or feature.environments is None:
        return
    strategies = [s for e in feature.environments for s in e.strategies or []]
    names = await segment_names(client, strategies)
    for env in feature.environments:
        variants, failed = env.variants, None
        if variants is None:
            try:
                variants = await client.rollouts.variants(args.project, args.name, env.name)
            except FlagtuiError as exc:
                failed = f"  environment variants not read: {exc}"
        out.note("")
        ordered = in_order(env.strategies or [])
        for line in rollout_lines(env.name, env.enabled, ordered, variants, names):
            out.note(line)
        if failed:
            out.note(failed)


def show_on_the_web(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """The URL on stdout (`{"url", "opened"}` as JSON); whether it opened, on stderr."""
    from flagtui.cli.web import open_in_browser
    from flagtui.web_ui import flag_url

    url = flag_url(client.base_url, args.project, args.name)
    why = open_in_browser(url)
    if out.is_json:
        out.one({"url": url, "opened": why is None, **({"why": why} if why else {})})
        return
    print(clean(url), flush=True)
    said = "opened in the web browser" if why is None else f"not opened: {why}"
    print(clean(f"flagtui: {said}"), file=sys.stderr, flush=True)

"""`flagtui tag type create NAME [--description TEXT]`: a new tag type (tag-type-created)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, tag_type_create, write="create tag type")
    p.add_argument("name", help="2 to 50 letters, digits and - _ . ! ~ * ' ( )")
    p.add_argument("--description", help="what tags of this type are for")


async def tag_type_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    created = await client.tags.create_type(args.name, args.description)
    done(out, "tag-type-created", name=created.name)

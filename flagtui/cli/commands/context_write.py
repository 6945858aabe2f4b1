"""`flagtui context create|edit|delete`: context fields written as real Unleash takes them.

An edit sends the whole field (Unleash's PUT empties the legal values and the stickiness it is
not sent, and resets the sort order to 0). SDKs never receive context fields, so no edit or
delete changes any flag's evaluation; an edit of legal values names the constraints whose
values would no longer be legal values (they keep working, and Unleash refuses to save their
strategies again as they are). A delete says where the field is used and, when it is, asks for
the typed name on any profile (Unleash 7.5.1 and 8.2.0 then refuse it; 6.10.1 deletes it and
the constraints stay).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from flagtui.cli.commands.context_fields import usage_lines, used_by
from flagtui.cli.done import done
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer, warn
from flagtui.cli.session import DryRunStop, confirm, read_json_input, scriptable
from flagtui.display import clean

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import LegalValue

T = TypeVar("T")
IN_USE = (
    "Unleash 7.5.1 and 8.2.0 refuse to delete a field in use; 6.10.1 deletes it and the"
    " constraints stay, on a field it no longer lists"
)
LEGAL_HELP = "a legal value, VALUE or VALUE=DESCRIPTION (repeat it)"


def _field_options(p: argparse.ArgumentParser, *, creating: bool) -> None:
    p.add_argument("name")
    p.add_argument("--description", help="at most 250 characters")
    verb = "the legal values" if creating else "the legal values: replaces them all"
    p.add_argument("--legal-value", action="append", default=[], metavar="VALUE[=DESCRIPTION]",
                   help=f"{LEGAL_HELP}; {verb} (1 to 100 characters each, each once)")  # fmt: skip
    p.add_argument("--legal-values-json", metavar="FILE|-",
                   help="the legal values as a JSON array of {value, description}")  # fmt: skip
    p.add_argument("--stickiness", action=argparse.BooleanOptionalAction, default=None,
                   help="offered for custom stickiness in strategies and variants")  # fmt: skip


def create_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, context_create, write="create context field")
    _field_options(p, creating=True)


def edit_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, context_edit, write="edit context field")
    _field_options(p, creating=False)
    p.add_argument("--add-legal-value", action="append", default=[], metavar="VALUE[=DESC]",
                   help="add (or re-describe) one legal value, the others kept")  # fmt: skip
    p.add_argument("--remove-legal-value", action="append", default=[], metavar="VALUE",
                   help="remove one legal value, the others kept")  # fmt: skip
    p.add_argument("--no-legal-values", action="store_true",
                   help="remove every legal value (any value may be used then)")  # fmt: skip


def delete_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, context_delete, write="delete context field", destructive=True)
    p.add_argument("name")


def _legal(raw: str) -> LegalValue:
    from flagtui.api.models import LegalValue

    value, sep, description = raw.partition("=")
    return LegalValue(value=value, description=description if sep else None)


def _given_legal(args: argparse.Namespace) -> list[LegalValue] | None:
    """The legal values the options give as a whole list (None: not given)."""
    from pydantic import ValidationError

    from flagtui.api.models import LegalValue

    if args.legal_value and args.legal_values_json:
        raise UsageError("--legal-value and --legal-values-json: give one of them")
    if args.legal_values_json:
        raw = read_json_input(args.legal_values_json, "--legal-values-json")
        try:
            return [LegalValue.model_validate(v, strict=True) for v in raw]
        except (ValidationError, TypeError) as exc:
            said = "an array of {value, description} objects, value a string"
            raise UsageError(f"--legal-values-json: {said} ({type(exc).__name__})") from None
    return [_legal(v) for v in args.legal_value] if args.legal_value else None


async def _said(write: Awaitable[T], shown: dict[str, Any]) -> T:
    """The write; under --dry-run, the request it stops carries `shown` too."""
    try:
        return await write
    except DryRunStop as stop:
        stop.shown.update(shown)
        raise


async def context_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.models import ContextField

    field = ContextField(
        name=args.name,
        description=args.description,
        legal_values=_given_legal(args) or [],
        stickiness=bool(args.stickiness),
    )
    created = await client.context_fields.create(field)
    done(out, "context-field-created", field=created.model_dump(mode="json", by_alias=True))


def _edited_legal(args: argparse.Namespace, current: list[LegalValue]) -> list[LegalValue] | None:
    whole = _given_legal(args)
    if args.no_legal_values:
        if whole or args.add_legal_value:
            raise UsageError("--no-legal-values: give no legal value with it")
        return []
    if whole is None and not (args.add_legal_value or args.remove_legal_value):
        return None
    legal = list(whole if whole is not None else current)
    for raw in args.add_legal_value:
        added = _legal(raw)
        legal = [v for v in legal if v.value != added.value] + [added]
    for value in args.remove_legal_value:
        if value not in {v.value for v in legal}:
            raise UsageError(f"--remove-legal-value {value}: not a legal value of {args.name}")
        legal = [v for v in legal if v.value != value]
    return legal


async def context_edit(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.context_fields import NO_EVALUATION_CHANGE

    fields = client.context_fields
    current = await fields.get(args.name)
    changes: dict[str, Any] = {}
    if args.description is not None:
        changes["description"] = args.description
    legal = _edited_legal(args, current.legal_values)
    if legal is not None:
        changes["legal_values"] = legal
    if args.stickiness is not None:
        changes["stickiness"] = args.stickiness
    if not changes:
        raise UsageError("nothing to change: give --description, a legal value or --stickiness")
    edit = fields.plan_edit(current, **changes)
    off = await fields.no_longer_legal(current.name, [v.value for v in legal]) if legal else []
    shown = {"evaluation": NO_EVALUATION_CHANGE, "noLongerLegal": [vars(o) for o in off]}
    out.note(NO_EVALUATION_CHANGE)
    for o in off:
        out.note(f"no longer a legal value: {o.words()}")
    if off and not out.is_json:
        print(clean(f"flagtui: {len(off)} constraints use values that would no longer be legal:"
                    " SDKs evaluate them as before; Unleash refuses to save their strategies"
                    " again unchanged"), file=sys.stderr)  # fmt: skip
    stored = await _said(fields.send_edit(edit), shown)
    field = stored.model_dump(mode="json", by_alias=True)
    done(out, "context-field-updated", field=field, **shown)


async def context_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.context_fields import NO_EVALUATION_CHANGE

    fields = client.context_fields
    field = await fields.get(args.name)
    uses = await fields.usage(field.name)
    if uses and not (args.yes or args.dry_run):
        lines = [*usage_lines(field.name, uses), IN_USE]
        if out.is_json:
            warn(out, "context-field-in-use", " ".join(line.strip() for line in lines))
        for line in [] if out.is_json else lines:
            print(clean(f"flagtui: {line}"), file=sys.stderr)
    if uses:
        flags = len({u.feature_name for u in uses})
        confirm(args, f"delete context field {field.name}, used by {flags} flags", field.name)
    shown = {"usedBy": used_by(uses), "evaluation": NO_EVALUATION_CHANGE}
    await _said(fields.delete(field.name), shown)
    done(out, "context-field-deleted", name=field.name, usedBy=used_by(uses))

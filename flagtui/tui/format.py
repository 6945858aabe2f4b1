"""How values look on screen, the same in every area (and stable for snapshot tests).

This module is the display boundary: every string that comes from a server, a proxy or a config
file (names, descriptions, messages, event data, URLs...) reaches the screen through `clean()`
(a `str`, for places that take plain text: Inputs, toasts with markup off) or `safe()` (a `Text`,
never parsed as markup: Select, OptionList and SelectionList labels, see `options()`). A styled
Text assembled from server values takes them through `put()` (Rich's `append` would drop BEL,
BS, VT, FF and CR unseen) and goes through `safe_text()`. All make control characters
visible instead of sending them to the terminal, neutralise bidirectional overrides, and replace
lone surrogates (which would end the app when written out).

A form's field shows `clean()` of the server's value and sends back `restored()`: the raw value
when untouched, byte for byte (widgets/inert.py: InertInput).

Where it is applied once for everyone: widgets/text.py (PlainStatic, PlainLabel, MessageLine:
every str or Text they are given), widgets/table.py (every cell), the app's `notify()` (every
toast), widgets/confirm.py (titles and bodies), widgets/header.py and the palette (app.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from difflib import SequenceMatcher
from itertools import pairwise
from typing import TYPE_CHECKING, TypeVar

from rich.text import Text

from flagtui.api.errors import ApiError
from flagtui.api.health import Health
from flagtui.display import clean
from flagtui.words import counted as counted  # the screens count with it

if TYPE_CHECKING:  # a start's first frame draws through here before the client is imported
    from flagtui.api.models import Feature, FeatureEnvironment, Project

V = TypeVar("V")


def safe(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """`clean()` as a Rich Text: shown exactly as written, never parsed as markup."""
    return Text(clean(value, multiline=multiline), style=style, end="")


def put(out: Text, value: object, style: str = "") -> None:
    """Append a server's words to a Text being built, cleaned first: Rich's own `append` would
    drop BEL, BS, VT, FF and CR without a trace (newlines and tabs are kept)."""
    out.append(clean(value, multiline=True), style=style)


def safe_text(text: Text, *, multiline: bool = True) -> Text:
    """A Text assembled from server values (a detail, a cell), cleaned run by run: the styles
    stay on the same words, control characters become visible (newlines and tabs kept when
    `multiline`)."""
    plain = text.plain
    if clean(plain, multiline=multiline) == plain:
        return text
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    out = Text(style=text.style, end=text.end, no_wrap=text.no_wrap, overflow=text.overflow)
    for start, end in pairwise(cuts):
        at = len(out)
        out.append(clean(plain[start:end], multiline=multiline))
        for span in text.spans:
            if span.start <= start and end <= span.end:
                out.stylize(span.style, at, len(out))
    return out


def restored(raw: str, shown: str) -> str:
    """What a one-line field that showed `clean(raw)` and now shows `shown` stands for: `raw`
    itself when untouched. Edited, each of raw's characters whose visible form (␛, ↵,
    <U+202E>...) is still there, whole and where it was, is that character again (deleting
    the form deletes it); the rest, typed or pasted, is taken as shown."""
    if shown == clean(raw):
        return raw
    forms = [(char, clean(char)) for char in raw]
    before = "".join(form for _, form in forms)
    if before == raw:  # nothing was shown in another form
        return shown
    starts: dict[int, int] = {}  # where each character's form begins in `before`
    at = 0
    for number, (_, form) in enumerate(forms):
        starts[at] = number
        at += len(form)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, shown, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append(shown[j1:j2])
            continue
        i = i1
        while i < i2:
            index = starts.get(i)
            if index is not None and i + len(forms[index][1]) <= i2:
                out.append(forms[index][0])
                i += len(forms[index][1])
            else:
                out.append(before[i])
                i += 1
    return "".join(out)


class Clock:
    """How times are shown, in every area at once: local time (the default) or UTC."""

    utc = False


def when(value: datetime | None, *, date_only: bool = False, zoned: bool = True) -> str:
    """Absolute, never relative, with the zone named: `YYYY-MM-DD HH:MM CET` (local time, or
    UTC when `Clock.utc`). A date alone carries no zone; `zoned=False` leaves it to a column's
    header (`shared_zone`)."""
    if value is None:
        return "—"
    value = _as_shown(value)
    if date_only:
        return value.strftime("%Y-%m-%d")
    stamp = value.strftime("%Y-%m-%d %H:%M")
    return f"{stamp} {zone_name(value)}" if zoned else stamp


def shared_zone(values: Iterable[datetime | None]) -> str | None:
    """The zone every one of these times is shown in, to be named once (in a column's header)
    rather than on each row; None when they differ (a change to summer time among them) or
    there are none."""
    zones = {zone_name(_as_shown(value)) for value in values if value is not None}
    return zones.pop() if len(zones) == 1 else None


def _as_shown(value: datetime) -> datetime:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)  # the API's times are UTC
    return value.astimezone(UTC if Clock.utc else None)


def zone_name(value: datetime) -> str:
    return "UTC" if Clock.utc else (value.tzname() or value.strftime("%z"))


def ago(seconds: float) -> str:
    """A rough age: "just now", "40 s ago", "2 min ago", "3 h ago", "2 days ago"."""
    if seconds < 5:
        return "just now"
    if seconds < 60:
        return f"{int(seconds)} s ago"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 48 * 3600:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} days ago"


def moment(value: datetime) -> str:
    """`when()`, without the date when it is today: "14:03 CET"."""
    today = when(datetime.now(UTC), date_only=True)
    return when(value).removeprefix(f"{today} ")


def age_note(shown: str, read_at: datetime, then: str) -> str:
    """ "cached rows from 14:03 CET, 2 h ago; refreshing…": what is shown, when it was read,
    then what happens next."""
    age = ago((datetime.now(UTC) - read_at).total_seconds())
    return f"{shown} from {moment(read_at)}, {age}; {then}"


class Ink:
    """How alarms are drawn, in every area at once (like `Clock`): in colour, or `plain` (under
    NO_COLOR and on the ansi themes, set by the app). A red made grey, or one of a terminal's
    16 on its own row colour, can all but vanish (about 1.3:1): plain, failures keep the text's
    own colour and stand out by weight (bold) and reverse video."""

    plain = False


def ink(coloured: str, plain: str) -> str:
    """The style for the current `Ink`: `coloured`, or `plain` (no colour in it)."""
    return plain if Ink.plain else coloured


CONNECTING = "connecting…"  # the header and a first frame, until the profile is open

DELIVERY_STATE_STYLES = {"success": "green", "successWithErrors": "yellow", "failed": "bold red"}
PLAIN_STATE_STYLES = {"success": "", "successWithErrors": "bold", "failed": "bold reverse"}
DELIVERY_STATE_LABELS = {"successWithErrors": "w/ errors"}


def delivery_state(state: str) -> Text:
    """An integration delivery's state, coloured (unknown states in yellow); plain: failed in
    bold reverse video, the others bold but success."""
    style = ink(DELIVERY_STATE_STYLES.get(state, "yellow"), PLAIN_STATE_STYLES.get(state, "bold"))
    return Text(clean(DELIVERY_STATE_LABELS.get(state, state)), style=style)


def enabled_mark(enabled: bool) -> tuple[str, str]:
    """An environment's `✓` (green) or `✗` (red; plain: bold), and its style."""
    return ("✓", ink("green", "")) if enabled else ("✗", ink("red", "bold"))


def lifetime(days: int | None) -> str:
    return "never" if not days else counted(days, "day")


def staleness(feature: Feature) -> Text:
    """Stale or nothing: no server's record says whether a flag is potentially stale (only the
    search's state filter knows), so a row never claims it either way."""
    if feature.stale:
        return Text("stale", style="bold yellow")
    return Text("")


def short_names(names: Iterable[str]) -> dict[str, str]:
    """The shortest prefix (from one letter) that still tells the environments apart."""
    names = sorted(set(names))
    for length in range(1, max((len(n) for n in names), default=1) + 1):
        prefixes = {n[:length] for n in names}
        if len(prefixes) == len(names):
            return {n: n[:length] for n in names}
    return {n: n for n in names}


def env_flags(environments: list[FeatureEnvironment] | None, short: dict[str, str]) -> Text:
    """Compact per-environment state: `d✓ s✗ p✓`."""
    out = Text()
    for index, env in enumerate(environments or []):
        if index:
            out.append(" ")
        out.append(clean(short.get(env.name, env.name)))
        out.append(*enabled_mark(env.enabled))
    return out


def project_options(projects: list[Project]) -> list[tuple[Text, str]]:
    """A project picker's (label, id) pairs: the name, and the id too when it differs."""
    return [(safe(p.name if p.name == p.id else f"{p.name} ({p.id})"), p.id) for p in projects]


def options(pairs: Iterable[tuple[object, V]]) -> list[tuple[Text, V]]:
    """(label, value) pairs for a Select, OptionList or SelectionList: labels through `safe`."""
    return [(safe(label), value) for label, value in pairs]


def yes_no(value: bool | None) -> str:
    return "yes" if value else "no"


def health_note(health: Health) -> str:
    """The header's word on the connection: nothing while all is well."""
    if health.failing_since is not None:
        failure = health.failure if isinstance(health.failure, ApiError) else None
        status = failure.status if failure is not None else None
        kind = failure.name if failure is not None else "no answer"
        if status is not None:  # a proxy's 502/503/504: something answers, the server fails
            return f"⚠ failing since {moment(health.failing_since)} ({status} {kind})"
        return f"⚠ not answering since {moment(health.failing_since)} ({kind})"
    if health.back_at is not None:
        return f"✓ answering again since {moment(health.back_at)}"
    return ""

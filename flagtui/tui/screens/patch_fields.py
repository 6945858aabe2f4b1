"""What the patch form's fields need to know of text: a checkbox's label, and which field a
server's refusal names."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from flagtui.api.errors import ApiError


def _names(text: str, wire: str) -> bool:
    """Whether a server's path or sentence names the field: `/type`, `"type"` or `type`."""
    return text == wire or f"/{wire}" in text or f'"{wire}"' in text


def flag_label(wire: str, value: bool) -> str:
    return f"{wire}: {'yes' if value else 'no'}"


def field_refusals(error: ApiError, wires: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each field a refusal names (`/type` in a detail's path or message, or `"type"` in the
    server's message), with what was said of it."""
    for wire in wires:
        reasons = [
            str(d.get("message") or error.message or error.name)
            for d in error.details
            if _names(str(d.get("path", "")), wire) or _names(str(d.get("message", "")), wire)
        ]
        if not reasons and _names(error.message, wire):
            reasons = [error.message]
        if reasons:
            yield wire, "; ".join(reasons)

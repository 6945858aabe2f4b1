"""Secrets on screen: integration parameters and the URLs in deliveries, masked the same way in
every area. A URL keeps its scheme and host (enough to tell which endpoint it is) and masks its
userinfo, path, query values and fragment, where webhook tokens live."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from rich.text import Text

MASK = "•••••"
SERVER_MASK = "*****"  # what Unleash sends in place of a sensitive parameter
SECRET_NAME = re.compile(r"token|key|secret|password|passwd|auth|credential|signature", re.I)
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s\"'<>]+", re.I)


def mask_url(url: str) -> str:
    """`https://user:pw@hooks.example:8443/services/T0/B1?token=abc#x` ->
    `https://•••••@hooks.example:8443/•••••?token=•••••#•••••`."""
    scheme, _, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, rest = rest[:end], rest[end:]
    _userinfo, at, host = authority.rpartition("@")
    out = f"{scheme}://{MASK + '@' if at else ''}{host}"
    rest, hash_, fragment = rest.partition("#")
    path, question, query = rest.partition("?")
    out += path if path in ("", "/") else "/" + MASK
    if question:
        out += "?" + "&".join(_masked_parameter(item) for item in query.split("&"))
    if hash_:
        out += "#" + (MASK if fragment else "")
    return out


def _masked_parameter(item: str) -> str:
    name, equals, value = item.partition("=")
    if not equals:
        return MASK if name else ""
    return f"{name}={MASK if value else ''}"


def mask_urls(text: str) -> str:
    """Every URL in a free text (a message, a JSON document) masked by `mask_url`."""
    return URL.sub(lambda match: mask_url(match.group(0)), text)


def mask_text(text: Text) -> Text:
    """`mask_urls` on a styled text (a detail), run by run, the styles kept on their words."""
    plain = text.plain
    if mask_urls(plain) == plain:
        return text
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    out = Text(style=text.style, end=text.end)
    for start, end in pairwise(cuts):
        at = len(out)
        out.append(mask_urls(plain[start:end]))
        for span in text.spans:
            if span.start <= start and end <= span.end:
                out.stylize(span.style, at, len(out))
    return out


def masked(name: str, value: Any, sensitive: set[str]) -> str:
    """An integration parameter as shown: whole-masked when its name says secret (or the
    provider marks it sensitive), URLs masked by `mask_url`, the server's mask shown as ours."""
    text = str(value)
    if name in sensitive or SECRET_NAME.search(name):
        return MASK
    return mask_urls(text).replace(SERVER_MASK, MASK)

"""Text from a server, a proxy or a config file made safe to print, with no UI library.

`clean()` is the one place that turns such a value into plain text for a terminal: control
characters become visible instead of being sent, bidirectional overrides are neutralised, lone
surrogates replaced. The TUI's display boundary (tui/format.py) and the commands (cli/) use it.
"""

from __future__ import annotations

# C0 controls become their Unicode "control pictures" (ESC -> ␛); DEL -> ␡. Newline and tab
# are kept in multi-line text and shown as ↵ and → in single-line places (cells, labels).
_C0 = {code: chr(0x2400 + code) for code in range(0x20)}
_C0[0x7F] = "\u2421"
# C1 controls (0x80-0x9F: CSI, OSC, ST... as single bytes) and characters that reorder or hide
# text (bidirectional overrides and isolates, zero-width spaces, the BOM): shown as <U+XXXX>.
_HIDDEN = [
    *range(0x80, 0xA0),
    0x061C, 0x200B, 0x200E, 0x200F, *range(0x202A, 0x202F), 0x2060, *range(0x2066, 0x206A),
    0xFEFF,
]  # fmt: skip
_VISIBLE = {**_C0, **{code: f"<U+{code:04X}>" for code in _HIDDEN}}
_SINGLE_LINE = str.maketrans({**_VISIBLE, 0x0A: "↵", 0x09: "→"})
_MULTI_LINE = str.maketrans({**_VISIBLE, 0x0A: "\n", 0x09: "\t"})


def clean(value: object, *, multiline: bool = False) -> str:
    """A server's or config's value as plain text that is safe to draw: no control sequence,
    no reordering, no lone surrogate. `multiline` keeps newlines and tabs."""
    text = value if isinstance(value, str) else str(value)
    if text.isascii() and text.isprintable():
        return text
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return text.translate(_MULTI_LINE if multiline else _SINGLE_LINE)

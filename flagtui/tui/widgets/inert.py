"""An Input for a server's text: it shows the text inert and keeps it raw to send back.

Textual's Input draws its value as given: a stored title `ESC ] 52 ; …` in it wrote the
terminal's clipboard. Here the value is always the visible form (`clean()`: ␛, ↵, <U+202E>,
as the detail shows it), whatever sets it: the server's text, a program, a paste. So the
cursor, the selection and the width are those of what is drawn. The server's text stays in
`raw_value`, through `restored()` (format.py):

- untouched, the field sends back exactly what the server has, byte for byte;
- edited, what the user sees is what is sent, except that a character the server sent whose
  visible form is still whole and in place is sent as that character (deleting ␛ deletes the
  ESC; typing around it keeps it); text typed or pasted is sent as shown, a pasted control
  character as its visible form.

Every form field that may hold a server's value is this one; a field only ever typed in (a
search box) may stay a plain Input, since a key cannot type a control character.
"""

from __future__ import annotations

from typing import Any

from textual.suggester import Suggester
from textual.widgets import Input

from flagtui.tui.format import clean, restored


class InertInput(Input):
    """A one-line field that may hold a server's text (see the module's docstring)."""

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        self.given = value
        placeholder = kwargs.pop("placeholder", "")
        suggester = kwargs.pop("suggester", None)
        super().__init__(
            value,
            placeholder=clean(placeholder),
            suggester=InertSuggester(suggester) if suggester is not None else None,
            **kwargs,
        )

    def validate_value(self, value: str) -> str:
        """Textual's hook on every assignment of `value`: only the visible form is kept."""
        return clean(value)

    @property
    def raw_value(self) -> str:
        """What the field stands for: the server's value untouched, else what was edited."""
        return restored(self.given, self.value)


class InertSuggester(Suggester):
    """A suggester's completions (a server's names) drawn inert: the Input draws them as
    given, after what was typed."""

    def __init__(self, inner: Suggester) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.inner = inner

    async def get_suggestion(self, value: str) -> str | None:
        typed = value if self.inner.case_sensitive else value.casefold()
        suggestion = await self.inner.get_suggestion(typed)
        return None if suggestion is None else clean(suggestion)

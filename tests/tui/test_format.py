"""The display boundary (format.py): what any server string becomes before it is drawn."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from rich.text import Text

from flagtui.tui.format import Clock, clean, options, restored, safe, safe_text, when

BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]


def is_drawable(text: str) -> bool:
    """No character a terminal would act on, reorder by, or fail to encode."""
    return all((ch.isprintable() and ord(ch) not in BIDI) or ch in "\n\t" for ch in text) and bool(
        text.encode("utf-8")
    )


@pytest.mark.parametrize("code", [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)])
def test_every_c0_and_c1_control_is_made_visible(code: int) -> None:
    raw = f"a{chr(code)}b"
    for multiline in (False, True):
        shown = clean(raw, multiline=multiline)
        keep = multiline and chr(code) in "\n\t"
        assert (chr(code) in shown) is keep
        assert shown.startswith("a") and shown.endswith("b") and len(shown) > 2
    if code < 0x20:
        assert clean(raw) == f"a{chr(0x2400 + code) if code not in (9, 10) else '→↵'[code - 9]}b"


def test_osc_52_and_title_sequences_are_inert() -> None:
    osc52 = "\x1b]52;c;aGFja2Vk\x1b\\"
    title = "\x1b]0;pwned\x07"
    assert clean(osc52) == "␛]52;c;aGFja2Vk␛\\"
    assert clean(title) == "␛]0;pwned␇"
    assert clean("\x9b2J\x9d0;x\x9c") == "<U+009B>2J<U+009D>0;x<U+009C>"  # 8-bit CSI, OSC, ST


@pytest.mark.parametrize("code", BIDI)
def test_bidirectional_controls_are_neutralised(code: int) -> None:
    shown = clean(f"abc{chr(code)}def")
    assert chr(code) not in shown and f"<U+{code:04X}>" in shown


def test_lone_surrogates_are_replaced_not_fatal() -> None:
    shown = clean("a\ud800b\udfffc")
    assert shown.startswith("a") and shown.endswith("c")
    shown.encode("utf-8")  # would raise with a lone surrogate
    assert is_drawable(shown)


def test_long_strings_and_emoji_are_kept_intact() -> None:
    long = "x" * 2000
    assert clean(long) == long
    family = "👩\u200d👩\u200d👧 team 🧑\u200d💻 ok ✓ é 漢字"
    assert clean(family) == family  # the zero-width joiner holds the emoji together


def test_zero_width_space_and_bom_are_shown() -> None:
    assert clean("a\u200bb\ufeffc") == "a<U+200B>b<U+FEFF>c"


def test_safe_is_never_markup() -> None:
    for hostile in ("[/x]", "[link=https://evil.example]click[/link]", "[bold red]x", "[/]"):
        text = safe(hostile)
        assert text.plain == hostile and not text.spans and not text.style


def test_safe_text_keeps_styles_on_the_same_words() -> None:
    text = Text()
    text.append("name\x1b[2J", style="bold")
    text.append(" · \u202eevil\n", style="italic")
    shown = safe_text(text)
    assert shown.plain == "name␛[2J · <U+202E>evil\n"
    bold = next(s for s in shown.spans if s.style == "bold")
    assert shown.plain[bold.start : bold.end] == "name␛[2J"
    italic = next(s for s in shown.spans if s.style == "italic")
    assert shown.plain[italic.start : italic.end] == " · <U+202E>evil\n"
    assert safe_text(text, multiline=False).plain.endswith("evil↵")


def test_options_labels_are_texts() -> None:
    [(label, value)] = options([("Data [/pipeline]", "data")])
    assert isinstance(label, Text) and label.plain == "Data [/pipeline]" and value == "data"


def test_when_names_the_zone_and_follows_the_clock(in_zone) -> None:
    moment = datetime(2026, 1, 15, 11, 22, tzinfo=UTC)
    in_zone("Europe/Berlin")
    assert when(moment) == "2026-01-15 12:22 CET"
    assert when(datetime(2026, 7, 15, 11, 22, tzinfo=UTC)) == "2026-07-15 13:22 CEST"
    Clock.utc = True
    assert when(moment) == "2026-01-15 11:22 UTC"
    assert when(moment.replace(tzinfo=None)) == "2026-01-15 11:22 UTC"  # naive means UTC


RAW_TITLE = "t \x1b]52;c;aGk=\x07 \x9b2J mid\u202eend"


def test_an_untouched_field_stands_for_the_raw_value() -> None:
    assert restored(RAW_TITLE, clean(RAW_TITLE)) == RAW_TITLE
    assert restored("plain", "plain") == "plain"


def test_typing_around_a_visible_form_keeps_its_character() -> None:
    shown = clean(RAW_TITLE)
    assert restored(RAW_TITLE, "new " + shown + "!") == "new " + RAW_TITLE + "!"
    assert restored("a\nb", "a↵b more") == "a\nb more"


def test_deleting_a_visible_form_deletes_its_character() -> None:
    shown = clean(RAW_TITLE)
    assert restored(RAW_TITLE, shown.replace("␛", "", 1)) == RAW_TITLE.replace("\x1b", "", 1)
    assert restored(RAW_TITLE, shown.replace("<U+202E>", "")) == RAW_TITLE.replace("\u202e", "")


def test_what_is_typed_or_left_of_a_form_is_taken_as_shown() -> None:
    """A form cut in part is text; a ␛ typed where the server had none stays a ␛."""
    shown = clean(RAW_TITLE)
    cut = shown.replace("<U+009B>", "<U+009")
    assert restored(RAW_TITLE, cut) == RAW_TITLE.replace("\x9b", "<U+009")
    assert restored("plain", "plain ␛ ↵") == "plain ␛ ↵"
    assert restored("a\x1bb", "a␛b␛") == "a\x1bb␛"  # the server's, then one typed

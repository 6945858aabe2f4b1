"""Input that JSON cannot carry is a usage error (exit 2) naming the option or field and the
limit, said before anything is sent: never an internal error with a traceback."""

from __future__ import annotations

import io

import pytest

from .conftest import event_count

PATCH = ("feature", "patch", "default", "admin-async-emails")
DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("NaN", "--set description: NaN is not a JSON value"),
        ("-Infinity", "--set description: -Infinity is not a JSON value"),
        ("1e999", "--set description: Infinity is not a JSON value"),
        ('{"a": [1, NaN]}', "--set description: NaN is not a JSON value"),
        (DEEP, "--set description: nested deeper than 100 levels"),
        ("[" * 101 + "]" * 101, "--set description: nested deeper than 100 levels"),
        ("\udcff", "--set description: holds text that is not valid UTF-8 (a lone surrogate)"),
    ],
    ids=["nan", "-infinity", "1e999", "nested-nan", "5000-deep", "101-deep", "not-utf8-arg"],
)
def test_2_a_set_value_json_cannot_carry(run, server, value: str, said: str):
    before = event_count(server)
    result = run(*PATCH, "--set", f"description={value}")
    assert (result.code, result.out) == (2, "")
    assert (result.error["kind"], result.error["message"]) == ("invalid-argument", said)
    assert f"flagtui: {said}" == run(*PATCH, "--set", f"description={value}", "-o", "table").line
    assert event_count(server) == before


def test_2_a_binary_json_patch_file(run, server, tmp_path):
    path = tmp_path / "patch.bin"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    before = event_count(server)
    result = run(*PATCH, "--json-patch", str(path))
    assert (result.code, result.out, result.error["kind"]) == (2, "", "usage")
    assert result.error["message"].startswith(f"--json-patch {path}: not UTF-8 text (")
    assert event_count(server) == before


def test_2_a_json_patch_on_stdin_that_is_not_utf8(run, monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b'[{"op": "\xff"}]'), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    result = run(*PATCH, "--json-patch", "-")
    assert (result.code, result.error["kind"]) == (2, "usage")
    assert result.error["message"].startswith("--json-patch -: not UTF-8 text (")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[{"op": "replace", "path": "/description", "value": NaN}]',
         "patch[0].value: NaN is not a JSON value"),
        ('[{"op": "add", "path": "/x", "value": [Infinity]}]',
         "patch[0].value: Infinity is not a JSON value"),
        ('[{"op": "replace", "path": "/description", "value": ' + "[" * 200 + "]" * 200 + "}]",
         "patch[0].value: nested deeper than 100 levels"),
    ],
    ids=["nan", "infinity", "200-deep"],
)  # fmt: skip
def test_2_a_json_patch_value_json_cannot_carry(run, server, tmp_path, text: str, said: str):
    path = tmp_path / "ops.json"
    path.write_text(text)
    before = event_count(server)
    result = run(*PATCH, "--json-patch", str(path))
    assert (result.code, result.error["kind"], result.error["message"]) == (
        2,
        "invalid-argument",
        said,
    )
    assert event_count(server) == before


def test_2_a_json_patch_file_nested_past_the_parser(run, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('[{"op": "replace", "path": "/description", "value": ' + DEEP + "}]")
    result = run(*PATCH, "--json-patch", str(path))
    assert (result.code, result.error["kind"]) == (2, "usage")
    assert result.error["message"] == f"--json-patch {path}: nested too deeply to read as JSON"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("feature", "show", "default", "a\udcffb"), "'a\\udcffb': a name that is not valid"),
        (("feature", "patch", "default", "a\udcffb", "--set", "stale=true"),
         "'a\\udcffb': a name that is not valid"),
        (("user", "search", "a\udcffb"), "q: holds text that is not valid UTF-8"),
        (("feature", "list", "--project", "default", "--search", "a\udcffb"),
         "query: holds text that is not valid UTF-8"),
    ],
    ids=["show", "patch", "user-search", "feature-search"],
)  # fmt: skip
def test_2_a_name_or_query_from_an_argument_that_is_not_utf8(run, server, argv, said: str):
    """Python gives such an argument's bytes as lone surrogates, which no URL can carry."""
    before = event_count(server)
    result = run(*argv)
    assert (result.code, result.out, result.error["kind"]) == (2, "", "invalid-argument")
    assert result.error["message"].startswith(said)
    assert event_count(server) == before

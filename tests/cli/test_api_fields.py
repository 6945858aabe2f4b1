"""`flagtui api`'s fields and headers as gh api reads its own: -F types true, false, null and
integers (not decimals) and reads @FILE, -f keeps text, KEY[SUB] nests and KEY[] makes a
list; a GET's fields are its query; bad input is refused naming the option."""

from __future__ import annotations

import pytest

from flagtui.cli.api_input import field_values, headers, json_body, query
from flagtui.cli.exits import UsageError


def typed(*texts: str) -> list[tuple[bool, str]]:
    return [(True, text) for text in texts]


def test_field_types_values_as_gh_does(tmp_path):
    (tmp_path / "note").write_text("from a file\n")
    values = field_values(
        [
            *typed("on=true", "off=false", "gone=null", "n=42", "neg=-3", "ratio=1.5"),
            *typed("word=release", f"note=@{tmp_path / 'note'}"),
            (False, "raw=true"),
            (False, "rawn=42"),
            (False, "at=@x"),
        ]
    )
    assert json_body(values) == {
        "on": True, "off": False, "gone": None, "n": 42, "neg": -3, "ratio": "1.5",
        "word": "release", "note": "from a file\n", "raw": "true", "rawn": "42", "at": "@x",
    }  # fmt: skip


def test_keys_nest_and_make_lists():
    values = field_values(
        typed("roles[]=4", "roles[]=5", "users[]", "parameters[rollout]=50", "a[b][c]=x")
    )
    assert json_body(values) == {
        "roles": [4, 5],
        "users": [],
        "parameters": {"rollout": 50},
        "a": {"b": {"c": "x"}},
    }


def test_a_gets_fields_are_query_parameters_as_typed():
    values = field_values(typed("limit=5", "on=true", "gone=null", "type=IS:x", "tags[]=a", "e[]"))
    assert query(values) == [
        ("limit", "5"), ("on", "true"), ("gone", ""), ("type", "IS:x"), ("tags[]", "a"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        (typed("novalue"), "--field novalue: KEY=VALUE"),
        (typed("=x"), "--field =x: a KEY"),
        (typed("a=1", "a=2"), "field a: given twice"),
        (typed("a=1", "a[b]=2"), "field a[b]: a is given both as a value and as an object"),
        (typed("a[]=1", "a[x]=2"), "field a[x]: a is given both as a value and as an object"),
        (typed("a[][b]=1"), "field a[][b]: [] only at the end of a KEY"),
        (typed("a=@/nonexistent/file"), "--field a=@/nonexistent/file: cannot be read"),
    ],
)
def test_bad_fields_are_refused_naming_the_option(fields, said):
    with pytest.raises(UsageError, match=r"^" + said.replace("[", r"\[").replace("]", r"\]")):
        json_body(field_values(fields))


def test_headers_are_taken_but_never_a_token_or_the_host():
    assert headers(["X-Trace: a: b", "Accept:application/json"]) == [
        ("X-Trace", "a: b"),
        ("Accept", "application/json"),
    ]
    for line, said in [
        ("Authorization: *:*.x", "-H Authorization: not accepted (the profile's token is sent"),
        ("host: evil.example", "-H host: not accepted (the request goes to the profile's"),
        ("no colon", "-H 'no colon': 'Name: value'"),
        ("X-A: a\x1bb", "-H X-A: a value of printable ASCII characters"),
        ("X-A: caf\udce9", "-H X-A: a value of printable ASCII characters"),
    ]:
        with pytest.raises(UsageError) as refused:
            headers([line])
        assert str(refused.value).startswith(said), line

"""`flagtui sandbox`: its options are the sandbox's own (flagtui/sandbox/options.py)."""

from __future__ import annotations


def test_the_sandbox_options_are_the_sandboxs_own(run):
    result = run("sandbox", "--help")
    assert result.code == 0
    assert result.out.startswith("usage: flagtui sandbox [-h] [--host HOST] [--port PORT]")
    assert "--size {empty,demo,hostile,large}" in result.out

"""`flagtui integration create|edit` given secrets off the command line: from stdin, a file only
its owner can read, or an environment variable; stored as given, in no output (--dry-run's
request included), and never in the process's arguments other local users see. A secret given
on the command line is warned of."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from flagtui.masking import MASK

from ..conftest import event_count
from ..processes import FLAGTUI, command_env
from .integrations import stored_parameters

SECRET = "https://hooks.example.test/T0/stdin-s3cr3t"


def private(path: Path, text: str, mode: int = 0o600) -> Path:
    path.write_text(text)
    path.chmod(mode)
    return path


def test_from_stdin_stored_as_given_and_shown_nowhere(run, sandbox, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET + "\n"))
    result = run("integration", "create", "webhook", "--param-stdin", "url", "-o", "json")
    assert result.code == 0, result.err
    assert result.err == ""  # no warning: nothing secret on the command line
    assert SECRET not in result.out
    assert stored_parameters(sandbox)["url"] == SECRET  # its last newline dropped


def test_from_a_private_file_stored_as_given(run, sandbox, tmp_path):
    secret_file = private(tmp_path / "hook", SECRET + "\n")
    result = run("integration", "create", "webhook", "--param-file", f"url={secret_file}")
    assert result.code == 0, result.err
    assert SECRET not in result.out + result.err
    assert stored_parameters(sandbox)["url"] == SECRET


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_file_others_can_read_is_refused_saying_how_to_fix_it(run, server, tmp_path, mode):
    secret_file = private(tmp_path / "hook", SECRET, mode)
    before = event_count(server)
    result = run("integration", "create", "webhook", "--param-file", f"url={secret_file}")
    assert result.code == 2
    assert result.error["kind"] == "invalid-argument"
    assert result.error["message"] == (
        f"--param-file url: {secret_file} is accessible by others (mode {mode:o}); flagtui"
        f" refuses to read a secret from it. Fix it with: chmod 600 {secret_file}"
    )
    assert event_count(server) == before


def test_from_the_environment_stored_as_given(run, sandbox, server, monkeypatch):
    monkeypatch.setenv("HOOK_URL", SECRET)
    result = run("integration", "create", "webhook", "--param-env", "url=HOOK_URL")
    assert result.code == 0, result.err
    assert SECRET not in result.out + result.err
    assert stored_parameters(sandbox)["url"] == SECRET
    before = event_count(server)
    unset = run("integration", "create", "webhook", "--param-env", "url=NO_SUCH_VARIABLE")
    assert unset.code == 2
    assert unset.error["message"] == (
        "--param-env url: the environment variable NO_SUCH_VARIABLE is not set"
    )
    assert event_count(server) == before


@pytest.mark.parametrize("output", ["json", "table"])
def test_a_secret_on_the_command_line_is_warned_of(run, output):
    result = run("integration", "create", "webhook", "--param", f"url={SECRET}", "-o", output)
    assert result.code == 0, result.err
    assert SECRET not in result.out + result.err
    said = result.err.strip()
    assert len(said.splitlines()) == 1, said
    if output == "json":
        assert json.loads(said)["warning"]["kind"] == "secret-on-command-line"
        said = json.loads(said)["warning"]["message"]
    assert "--param url is a secret given on the command line, where other local users can" in said
    assert "--param-stdin url, --param-file url=PATH or --param-env url=VARNAME" in said


@pytest.mark.parametrize("output", ["json", "table"])
def test_dry_run_masks_a_body_template_as_every_output_does(run, output):
    template = '{"text": "{{event.type}}", "token": "tmpl-s3cr3t"}'
    argv = ("integration", "create", "webhook", "--param", f"url={SECRET}",
            "--param", f"bodyTemplate={template}", "--dry-run", "-o", output)  # fmt: skip
    result = run(*argv)
    assert result.code == 0, result.err
    assert "s3cr3t" not in result.out + result.err
    if output == "json":
        assert result.json["body"]["parameters"] == {"url": MASK, "bodyTemplate": MASK}


def test_dry_run_masks_what_came_off_the_command_line(run, monkeypatch):
    monkeypatch.setenv("HOOK_URL", SECRET)
    monkeypatch.setenv("CONTENT_TYPE", "application/x-s3cr3t")
    argv = ("integration", "create", "webhook", "--param-env", "url=HOOK_URL",
            "--param-env", "contentType=CONTENT_TYPE", "--dry-run")  # fmt: skip
    for output in ("json", "table"):
        result = run(*argv, "-o", output)
        assert result.code == 0, result.err
        assert "s3cr3t" not in result.out + result.err
    sent = run(*argv, "-o", "json").json["body"]["parameters"]
    assert sent == {"url": MASK, "contentType": MASK}


def test_edit_takes_a_secret_from_stdin(run, sandbox, monkeypatch):
    monkeypatch.setenv("HOOK_URL", "https://hooks.example.test/first")
    new_id = run(
        "integration", "create", "webhook", "--param-env", "url=HOOK_URL", "-o", "json"
    ).json["id"]
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET))
    result = run("integration", "edit", str(new_id), "--param-stdin", "url")
    assert result.code == 0, result.err
    assert stored_parameters(sandbox)["url"] == SECRET


def test_ps_shows_no_secret_while_it_reads_stdin(cli_env, sandbox):
    """As another user would: `ps -eww -o args` run as nobody (root can become anyone; `ww`:
    off a terminal ps cuts each line at 80 columns), else the processes' /proc/PID/cmdline,
    which ps reads."""
    command = [*FLAGTUI, "integration", "create", "webhook", "--param-stdin", "url"]
    env = command_env(cli_env, sandbox)
    with subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdin is not None
        proc.stdin.write(SECRET.encode())
        proc.stdin.flush()  # written, not closed: it is reading stdin while ps looks
        listed = every_processes_arguments()
        assert any("--param-stdin url" in line for line in listed), "ps sees the command"
        assert not [line for line in listed if "s3cr3t" in line]
        proc.stdin.close()
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=60)
    assert proc.returncode == 0, err
    assert b"s3cr3t" not in out + err
    assert stored_parameters(sandbox)["url"] == SECRET


def every_processes_arguments() -> list[str]:
    if os.geteuid() == 0:
        ps = ["su", "nobody", "-s", "/bin/sh", "-c", "ps -eww -o args"]
        return subprocess.run(
            ps, capture_output=True, text=True, check=True, timeout=30
        ).stdout.splitlines()
    lines = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            lines.append(cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return lines

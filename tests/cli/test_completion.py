"""Shell completion, driven the way bash drives it: the script `flagtui completion bash` prints
is sourced, and its completion function is called with the words typed so far; what it puts in
COMPREPLY is what the user's TAB shows. Real bash, the real `flagtui` console script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
TAB = """
source <(flagtui completion bash)
COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_python_argcomplete flagtui "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "${COMPREPLY[@]}"
"""

pytestmark = pytest.mark.skipif(
    not (BIN / "flagtui").exists() or shutil.which("bash") is None,
    reason="needs bash and the flagtui console script beside this Python (./dev test installs it)",
)


def tab(line: str, config: Path) -> list[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "FLAGTUI_CONFIG": str(config)}  # fmt: skip
    done = subprocess.run(
        ["bash", "-c", TAB, "tab", line], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return [word.strip() for word in done.stdout.splitlines() if word.strip()]


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        'default_profile = "staging"\n[profiles.staging]\nurl = "https://staging.example"\n'
        '[profiles.prod-eu]\nurl = "https://prod.example"\n'
    )
    return path


def test_a_verb_completes_from_its_first_letters(config):
    assert tab("flagtui feature ar", config) == ["archive"]
    assert "feature" in tab("flagtui fe", config)


def test_profile_names_come_from_the_config_file(config):
    assert tab("flagtui -P ", config) == ["prod-eu", "staging"]
    assert tab("flagtui feature list -P p", config) == ["prod-eu"]


def test_options_complete_too(config):
    assert set(tab("flagtui feature list --pro", config)) == {"--profile", "--project"}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_script_naming_flagtui(shell):
    done = subprocess.run(
        [sys.executable, "-m", "flagtui", "completion", shell], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "flagtui" in done.stdout and "_ARGCOMPLETE" in done.stdout


def test_project_and_flag_names_come_from_the_tuis_row_cache(config, tmp_path, monkeypatch):
    from flagtui.row_cache_file import default_cache_dir
    from flagtui.tui.row_cache import RowCache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = RowCache(default_cache_dir(), "staging", "https://staging.example")
    rows = [("checkout-v2", ["checkout-v2", "release"]), ("search-beta", ["search-beta", "x"])]
    cache.save("features", "default", rows)

    def names(line: str) -> list[str]:  # the long options are offered beside them
        return [word for word in tab(line, config) if not word.startswith("-")]

    assert names("flagtui feature show ") == ["default"]
    assert names("flagtui feature show default ") == ["checkout-v2", "search-beta"]
    assert tab("flagtui feature show default ch", config) == ["checkout-v2"]
    assert names("flagtui feature show other ") == []  # another project: not cached
    assert names("flagtui feature show -P prod-eu default ") == []  # another profile


def test_only_cached_names_valid_as_flag_names_are_offered(config, tmp_path, monkeypatch):
    from flagtui.row_cache_file import default_cache_dir
    from flagtui.tui.row_cache import RowCache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = RowCache(default_cache_dir(), "staging", "https://staging.example")
    hostile = ["$(touch pwned)", "a\nb", "bell\x07", "\x1b]0;title\x07", "tab\tx", "..", "é"]
    rows = [(name, [name, "release"]) for name in ["checkout-v2", *hostile, "it's(ok)~"]]
    cache.save("features", "default", rows)
    offered = [word for word in tab("flagtui feature show default ", config) if word[0] != "-"]
    assert offered == ["checkout-v2", "it\\'s\\(ok\\)~"]  # escaped for bash by argcomplete
    assert not (tmp_path / "pwned").exists()

    cache.save("features", "$(touch pwned)", rows)  # a project no id can be
    assert [w for w in tab("flagtui feature show ", config) if w[0] != "-"] == []

"""Mutation testing of the UI-free rule and triage modules (mutmut, configured in pyproject.toml's
[tool.mutmut]): each module's mutants in turn, each mutant run against the fast tests that reach
its function. Prints each module's score and every surviving mutant's change, and fails when a
module scores below its floor in scripts/mutation_floors.toml (floors only go up:
tests/test_mutation_floors.py checks the file against each committed version of it).

    ./dev mutation                                   # every module
    ./dev mutation flagtui/triage/coverage.py        # one of them

A mutant counts as caught when a test fails on it or it runs out of time (a loop that no longer
ends); survivors, mutants no test reaches and anything else count against the score.
"""

from __future__ import annotations

import ast
import difflib
import functools
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS = ROOT / "scripts" / "mutation_floors.toml"
MUTANTS = ROOT / "mutants"  # mutmut's working copy (its name is fixed)
LOGS = ROOT / ".tmp" / "mutation"
CAUGHT = {1, 3, 36, 24, -24, 152, 255}  # mutmut's exit codes for killed and timed out
SURVIVED = 0
# Two mutants at a time: the tests of one take a fraction of a second, and CI runs this beside
# the real-server suites on two cores.
CHILDREN = "2"


def floors() -> dict[str, float]:
    return dict(tomllib.loads(FLOORS.read_text(encoding="utf-8"))["floors"])


def configured_modules() -> list[str]:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(pyproject["tool"]["mutmut"]["only_mutate"])


def dotted(module: str) -> str:
    return module.removesuffix(".py").replace("/", ".")


def run_module(module: str) -> Path:
    """mutmut on one module's mutants; its output goes to a log, returned."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{dotted(module)}.log"
    mutmut = Path(sys.executable).parent / "mutmut"
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [str(mutmut), "run", "--max-children", CHILDREN, f"{dotted(module)}.*"],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"mutation: mutmut failed on {module} (exit {done.returncode}); see {log}")
    return log


def exit_codes(module: str) -> dict[str, int | None]:
    meta = json.loads((MUTANTS / f"{module}.meta").read_text(encoding="utf-8"))
    return dict(meta["exit_code_by_key"])


def tests_reaching(module: str) -> int:
    """How many tests mutmut runs against the module's mutants: those that call one of its
    functions (it times each test once, with every function watched, and keeps the callers)."""
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text(encoding="utf-8"))
    callers = stats["tests_by_mangled_function_name"]
    return len(
        {t for f, tests in callers.items() if f.startswith(f"{dotted(module)}.") for t in tests}
    )


@functools.cache
def mutated_functions(module: str) -> dict[str, str]:
    """mutmut's copy of the module: one function per mutant beside the original,
    `<function>__mutmut_<n>` and `<function>__mutmut_orig`, by name."""
    source = (MUTANTS / module).read_text(encoding="utf-8")
    return {
        node.name: ast.get_source_segment(source, node) or ""
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def mutant_diff(module: str, name: str) -> list[str]:
    """The lines a mutant changes."""
    functions = mutated_functions(module)
    function = name.rsplit(".", 1)[-1]
    orig = function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"
    original = functions.get(orig, "").replace(orig, function, 1)  # a default's change shows
    mutated = functions.get(function, "")
    return [
        line
        for line in difflib.unified_diff(
            original.splitlines(), mutated.splitlines(), lineterm="", n=0
        )
        if line[:1] in "-+" and line[:3] not in ("---", "+++")
    ]


def main(argv: list[str]) -> int:
    wanted = floors()
    modules = configured_modules()
    if sorted(wanted) != sorted(modules):
        print(
            f"mutation: {FLOORS.name} names {sorted(wanted)}, "
            f"[tool.mutmut] only_mutate {sorted(modules)}: one list of modules, please"
        )
        return 2
    chosen = argv or modules
    unknown = [m for m in chosen if m not in modules]
    if unknown:
        print(f"mutation: not a module under mutation testing: {', '.join(unknown)}")
        return 2
    shutil.rmtree(MUTANTS, ignore_errors=True)  # nothing remembered from an earlier run
    started = time.monotonic()
    below, lines = [], []
    for module in chosen:
        began = time.monotonic()
        run_module(module)
        codes = exit_codes(module)
        caught = sum(1 for code in codes.values() if code in CAUGHT)
        # Rounded down, so that a floor raised to the score printed holds.
        score = 1000 * caught // len(codes) / 10 if codes else 100.0
        survivors = sorted(name for name, code in codes.items() if code not in CAUGHT)
        for name in survivors:
            status = "survived" if codes[name] == SURVIVED else f"exit {codes[name]}"
            print(f"  {status}: {name}")
            for line in mutant_diff(module, name):
                print(f"      {line.strip()[:1]} {line[1:].strip()}")
        floor, took = wanted[module], time.monotonic() - began
        line = (
            f"mutation: {module:34} {caught:4} of {len(codes):4} caught  {score:5.1f} %"
            f"  floor {floor:5.1f} %  ({tests_reaching(module)} tests, {took:.0f} s)"
        )
        print(line, flush=True)
        lines.append(line)
        if score < floor:
            below.append(module)
    print("\n".join(lines))
    print(f"mutation: {time.monotonic() - started:.0f} s in all")
    if below:
        print(f"mutation: below the floor: {', '.join(below)}")
        return 1
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    raise SystemExit(main(sys.argv[1:]))

"""Golden outputs of the commands on the demo sandbox (fixed seed and `now`): how many records,
the field names of every record, and the first record in full. FLAGTUI_UPDATE_GOLDEN=1
rewrites them; review the diff before committing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "golden"


def shape(value: Any) -> dict[str, Any]:
    if isinstance(value, list):
        fields = sorted({key for item in value for key in item})
        return {"count": len(value), "fields": fields, "first": value[0] if value else None}
    return {"fields": sorted(value), "record": value}


def assert_golden(name: str, value: Any) -> None:
    path = GOLDEN / f"{name}.json"
    got = shape(value)
    if os.environ.get("FLAGTUI_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n")
    assert got == json.loads(path.read_text()), f"{name}: output differs from {path.name}"

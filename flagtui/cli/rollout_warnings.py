"""What the rollout commands warn of before they ask or send: the context fields a strategy or
its variants name that the server does not list (`rollout_rules.unlisted_fields`). Unleash
accepts them, so the command goes on; the warning says the SDKs must send the field. On stderr
in every format (stdout stays the data): a JSON `warning` object per field with JSON output."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from flagtui.cli.output import Printer
from flagtui.display import clean


def warn_unlisted(out: Printer, warnings: Sequence[tuple[str, str]]) -> None:
    for field, said in warnings:
        if out.is_json:
            warning = {"kind": "unlisted-context-field", "field": field, "message": said}
            print(json.dumps({"warning": warning}), file=sys.stderr, flush=True)
        else:
            print(clean(f"flagtui: warning: {field}: {said}"), file=sys.stderr, flush=True)

"""How `flagtui api` prints an answer, and the request a `--dry-run` stopped: secrets masked by
the one rule (flagtui/masking.py: a value whose name says secret, the paths and queries of
URLs, Authorization and cookies among the headers), server text made safe for a terminal.

- a terminal (`-o table`, the default there): the JSON indented, control characters and
  bidirectional overrides made visible (`display.clean`);
- piped (`-o json`, the default there): the body as the server sent it, or, where masking
  changed something or pages were joined, the JSON written again on one line;
- `-o jsonl`: the JSON on one line, ASCII-escaped.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from flagtui.display import clean
from flagtui.masking import MASK, SECRET_NAME, mask_urls, masked_delivery_json, masked_value

if TYPE_CHECKING:
    import httpx

    from flagtui.api.raw import RawAnswer
    from flagtui.cli.output import Printer


def masked_answer(document: Any) -> Any:
    """A JSON answer with its secrets masked: by name, URLs' paths and queries, and an
    integration's deliveries (`integrationEvents`) as the failures view masks them (a text
    body is the rendered body template: masked whole)."""
    deliveries = document.get("integrationEvents") if isinstance(document, dict) else None
    if isinstance(deliveries, list):
        masked = [masked_delivery_json(d) if isinstance(d, dict) else d for d in deliveries]
        document = {**document, "integrationEvents": masked}
    return masked_value(document)


def _secret_header(name: str) -> bool:
    return bool(SECRET_NAME.search(name)) or "cookie" in name.lower()


def header_lines(headers: httpx.Headers) -> list[str]:
    return [
        clean(f"{name}: {MASK if _secret_header(name) else value}")
        for name, value in headers.multi_items()
    ]


def status_line(response: httpx.Response) -> str:
    return clean(f"{response.http_version} {response.status_code} {response.reason_phrase}")


def print_answer(out: Printer, answer: RawAnswer, *, include: bool) -> None:
    if include:
        for page in answer.pages:
            _write_text("\n".join([status_line(page), *header_lines(page.headers), "", ""]))
    last = answer.last
    if last.request.method == "HEAD" or not last.content.strip():
        return
    if answer.is_json:
        _print_json(out, answer.document, last.content if len(answer.pages) == 1 else None)
    else:
        _print_text(out, last)


def _print_json(out: Printer, document: Any, sent: bytes | None) -> None:
    masked = masked_answer(document)
    if out.format == "table":
        _write_text(clean(json.dumps(masked, indent=2, ensure_ascii=False), multiline=True))
    elif out.format == "jsonl":
        _write_text(json.dumps(masked, separators=(",", ":")))
    elif sent is not None and masked == document:
        _write_bytes(sent)
    else:
        _write_text(json.dumps(masked, ensure_ascii=False, separators=(",", ":")))


def _print_text(out: Printer, response: httpx.Response) -> None:
    text = response.text
    masked = mask_urls(text)
    if out.format == "table":
        _write_text(clean(masked, multiline=True))
    elif masked == text and out.format == "json":
        _write_bytes(response.content)
    else:
        _write_text(masked)


def dry_run_shown(request: httpx.Request) -> dict[str, Any]:
    """The request as sent, but for its secrets."""
    body: Any = None
    if request.content:
        try:
            body = masked_value(json.loads(request.content))
        except ValueError:
            body = mask_urls(request.content.decode("utf-8", "replace"))
    headers = {
        name: MASK if _secret_header(name) else value
        for name, value in request.headers.multi_items()
    }
    return {
        "dryRun": True,
        "method": request.method,
        "url": str(request.url),
        "headers": headers,
        "body": body,
    }


def print_dry_run(out: Printer, request: httpx.Request) -> None:
    shown = dry_run_shown(request)
    if out.is_json:
        out.line(shown) if out.format == "jsonl" else out.one(shown)
        return
    lines = [f"dry run: would send {shown['method']} {shown['url']}"]
    lines += [f"{name}: {value}" for name, value in shown["headers"].items()]
    body = shown["body"]
    if body is not None:
        text = body if isinstance(body, str) else json.dumps(body, indent=2, ensure_ascii=False)
        lines += ["", text]
    lines.append("nothing was sent")
    _write_text(clean("\n".join(lines), multiline=True))


def _write_text(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data if data.endswith(b"\n") else data + b"\n")
    sys.stdout.buffer.flush()

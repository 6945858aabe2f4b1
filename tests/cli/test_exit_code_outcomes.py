"""Exit 7 for a write whose answer does not prove its result, through a loopback gateway in front
of the sandbox (`tests/gateway.py`): the gateway forwards the PATCH, the sandbox applies it, then
the gateway answers 502/503/504 itself or a 200 that is not the API's JSON. The API's own answers
keep their exit codes through the same gateway: a refusal (4xx) is 2, 3 or 4, and Unleash's
maintenance-mode 503 (a JSON error: the write was refused) is 6."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest
from gateway import Answer, Gateway, gateway_page

from .conftest import event_count

FLAG = "/api/admin/projects/default/features/admin-async-emails"
MAINTENANCE = b'{"message": "Unleash is currently in maintenance mode."}'
ENVOY_RESET = b"upstream connect error or disconnect/reset before headers. reset reason: overflow"
StartGateway = Callable[..., Gateway]


@pytest.fixture
def through_gateway(sandbox, monkeypatch) -> Iterator[StartGateway]:
    """`through_gateway(answer=..., forward=...)`: the `env` profile now reaches the sandbox
    through a gateway answering PATCH with `answer`."""
    with ExitStack() as stack:

        def start(**kwargs: object) -> Gateway:
            gateway = stack.enter_context(Gateway(sandbox.url, **kwargs))  # type: ignore[arg-type]
            monkeypatch.setenv("UNLEASH_URL", gateway.url)
            return gateway

        yield start


def patch_description(run, value: str, *options: str):
    argv = ("feature", "patch", "default", "admin-async-emails", "--set", f"description={value}")
    return run(*argv, *options)


UNPROVEN = [
    pytest.param(gateway_page(502), "the gateway answered 502 after the request was sent",
                 id="502"),
    pytest.param(gateway_page(503), "the gateway answered 503 after the request was sent",
                 id="503"),
    pytest.param(gateway_page(504), "the gateway answered 504 after the request was sent",
                 id="504"),
    # A gateway's own 503 in JSON (issue 43, item 5: exit 6 before, though applied).
    pytest.param(Answer(503, "application/json", b'{"message": "no healthy upstream"}'),
                 "the gateway answered 503 after the request was sent", id="503-json"),
    pytest.param(Answer(503, "text/plain", ENVOY_RESET),
                 "the gateway answered 503 after the request was sent", id="503-envoy"),
    pytest.param(Answer(200, "text/html", b"<html>Sign in to the proxy</html>"),
                 "the server answered 200, but the answer is not JSON (text/html)", id="200-html"),
    pytest.param(Answer(200, "application/json", b'{"ok": true}'),
                 "the server answered 200, but the answer does not have the expected shape",
                 id="200-wrong-shape"),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "why"), UNPROVEN)
def test_7_a_write_applied_behind_an_answer_that_proves_nothing(
    run, server, through_gateway, answer: Answer, why: str
):
    gateway = through_gateway(answer=answer)
    result = patch_description(run, "applied behind the gateway")
    assert (result.code, result.out) == (7, "")
    error = result.error
    assert (error["kind"], error["status"], error["method"]) == ("outcome-unknown", answer.status,
                                                                 "PATCH")  # fmt: skip
    assert error["path"] == FLAG
    assert error["message"].startswith(why)
    assert error["message"].endswith("may or may not have been applied: re-read before retrying")
    assert gateway.count("PATCH") == 1, "a write is never sent again"
    assert server.get(FLAG).json()["description"] == "applied behind the gateway"


def test_7_said_in_one_readable_line(run, through_gateway):
    through_gateway(answer=gateway_page(504))
    line = patch_description(run, "x", "-o", "table").line
    assert line.startswith(f"flagtui: PATCH {FLAG} (profile env) failed: 504 GatewayTimeout: ")
    why = "the gateway answered 504 after the request was sent: Gateway Timeout (text/html)"
    assert why in line
    assert line.endswith("re-read before retrying") and "<html" not in line


def test_6_the_apis_own_503_refused_the_write(run, server, through_gateway):
    """Unleash in maintenance mode answers writes 503 with a JSON error: not applied."""
    before = server.get(FLAG).json()["description"]
    through_gateway(answer=Answer(503, "application/json", MAINTENANCE), forward=False)
    result = patch_description(run, "refused")
    assert (result.code, result.error["kind"], result.error["status"]) == (6, "server-error", 503)
    assert result.error["message"] == "Unleash is currently in maintenance mode."
    assert server.get(FLAG).json()["description"] == before


def test_a_read_through_a_failing_gateway_is_not_an_outcome(run, through_gateway):
    through_gateway(answer=gateway_page(504), method="GET", forward=False)
    result = run("type", "list")
    assert (result.code, result.error["kind"], result.error["status"]) == (6, "server-error", 504)


@pytest.mark.parametrize(
    ("argv", "code", "status"),
    [
        (("feature", "patch", "default", "admin-async-emails", "--set", 'stale="yes"'), 2, 400),
        (("feature", "patch", "default", "no-such-flag", "--set", "description=x"), 4, 404),
    ],
    ids=["400", "404"],
)
def test_the_apis_refusals_keep_their_codes_through_a_gateway(
    run, server, through_gateway, argv, code, status
):
    before = event_count(server)
    gateway = through_gateway()
    result = run(*argv)
    assert (result.code, result.error["status"]) == (code, status)
    assert result.error["kind"] != "outcome-unknown"
    assert gateway.count("PATCH") == 1 and event_count(server) == before


def test_3_a_refused_permission_through_a_gateway(run, sandbox, through_gateway, monkeypatch):
    monkeypatch.setenv("UNLEASH_API_TOKEN", sandbox.viewer_token)
    through_gateway()
    result = patch_description(run, "x")
    assert (result.code, result.error["kind"], result.error["status"]) == (3, "permission", 403)

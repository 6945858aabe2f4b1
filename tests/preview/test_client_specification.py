"""Unleash's client specification (npm `@unleash/client-specification`, pinned in
scripts/sdk-node) run against the preview: every spec file, both evaluation paths (`tests`:
is-enabled; `variantTests`: the variant, its payload and the flag's state).

Each spec state is a client API answer; each of its flags is given to the preview as the admin
API's record of it (one environment holding the flag's `enabled`, strategies and variants), with
the state's segments and the other flags (a child's parents), so the preview's own path
(record → client shape → engine, the context built as the Python SDK builds it) is what is
judged. The delta files' events are applied in order first. The package is installed by
`npm ci` in scripts/sdk-node (.ci/run does it); without it the cases are skipped, saying so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flagtui.preview import Evaluation, Preview, PreviewError

SPEC = (
    Path(__file__).parents[2]
    / "scripts/sdk-node/node_modules/@unleash/client-specification/specifications"
)
ENVIRONMENT = "default"  # the SDKs' own default environment, as their spec runners use it


def spec_files() -> list[str]:
    index = SPEC / "index.json"
    return json.loads(index.read_text()) if index.is_file() else []


def state_of(spec: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The spec's flags by name and its segments (a delta file's events applied in order)."""
    state = spec["state"]
    features = {f["name"]: f for f in state.get("features") or []}
    segments = {s["id"]: s for s in state.get("segments") or []}
    for event in state.get("events") or []:
        kind = event["type"]
        if kind == "hydration":
            features = {f["name"]: f for f in event.get("features") or []}
            segments = {s["id"]: s for s in event.get("segments") or []}
        elif kind == "feature-updated":
            features[event["feature"]["name"]] = event["feature"]
        elif kind == "feature-removed":
            features.pop(event["featureName"], None)
        elif kind == "segment-updated":
            segments[event["segment"]["id"]] = event["segment"]
        elif kind == "segment-removed":
            segments.pop(event["segmentId"], None)
        else:
            raise AssertionError(f"a delta event this test does not know: {kind!r}")
    return features, list(segments.values())


def admin_record(feature: dict[str, Any]) -> dict[str, Any]:
    """A client API flag as the admin API's record of it, in ENVIRONMENT."""
    record = {k: feature[k] for k in ("name", "type", "project", "stale") if k in feature}
    record["impressionData"] = bool(feature.get("impressionData"))
    if feature.get("dependencies"):
        record["dependencies"] = feature["dependencies"]
    record["environments"] = [
        {
            "name": ENVIRONMENT,
            "enabled": feature["enabled"],
            "strategies": list(feature.get("strategies") or []),
            "variants": list(feature.get("variants") or []),
        }
    ]
    return record


def is_off(expected: bool | dict[str, Any]) -> bool:
    """An is-enabled answer of false, or the disabled variant of a flag that is off."""
    if isinstance(expected, bool):
        return expected is False
    return not expected["enabled"] and not expected.get("feature_enabled", False)


def parents(features: dict[str, dict[str, Any]], flag: str) -> list[str]:
    """The flags `flag` depends on, directly or not, that the state holds."""
    found: list[str] = []
    todo = [d["feature"] for d in features[flag].get("dependencies") or []]
    while todo:
        name = todo.pop()
        if name in features and name not in found and name != flag:
            found.append(name)
            todo += [d["feature"] for d in features[name].get("dependencies") or []]
    return found


def lacks(features: dict[str, dict[str, Any]], segments: list[dict[str, Any]], flag: str) -> bool:
    """Whether `flag` or a parent names a segment or a parent flag the state does not hold."""
    known = {s["id"] for s in segments}
    for name in [flag, *parents(features, flag)]:
        feature = features[name]
        if any(d["feature"] not in features for d in feature.get("dependencies") or []):
            return True
        named = {i for s in feature.get("strategies") or [] for i in s.get("segments") or []}
        if named - known:
            return True
    return False


def cases() -> tuple[list[Any], list[tuple[str, str]]]:
    """The spec's cases on flags its state holds, and (file, flag) of those on flags it does
    not (a preview is always given the record of the flag it evaluates: nothing to ask)."""
    held, absent = [], []
    for name in spec_files():
        spec = json.loads((SPEC / name).read_text())
        features, _ = state_of(spec)
        for path in ("tests", "variantTests"):
            for i, case in enumerate(spec.get(path) or []):
                if case["toggleName"] not in features:
                    absent.append((name, case["toggleName"]))
                    continue
                held.append(pytest.param(name, path, case, id=f"{name[:2]}-{path}-{i}"))
    return held, absent


HELD, ABSENT = cases()
NOT_INSTALLED = "npm ci in scripts/sdk-node installs @unleash/client-specification"
pytestmark = pytest.mark.skipif(not spec_files(), reason=NOT_INSTALLED)


@pytest.mark.parametrize(("name", "path", "case"), HELD)
def test_the_preview_answers_as_the_specification(name, path, case):
    features, segments = state_of(json.loads((SPEC / name).read_text()))
    flag, expected = case["toggleName"], case["expectedResult"]
    record = admin_record(features[flag])
    related = [admin_record(features[n]) for n in parents(features, flag)]
    if lacks(features, segments, flag):
        # Where the state lacks a segment or parent flag the flag names, an SDK answers "off";
        # the preview says it cannot answer rather than guess (its callers always give both).
        with pytest.raises(PreviewError, match=r"was not given|give that flag too"):
            Preview(record, ENVIRONMENT, segments=segments, related=related)
        assert is_off(expected), case["description"]
        return
    preview = Preview(record, ENVIRONMENT, segments=segments, related=related)
    got = preview.evaluate(case.get("context") or {})
    if path == "tests":
        assert got.enabled is expected, case["description"]
        return
    wanted = Evaluation(
        enabled=expected.get("feature_enabled", got.enabled),
        variant=expected["name"],
        variant_enabled=expected["enabled"],
        payload=expected.get("payload"),
    )
    assert got == wanted, case["description"]


def test_every_spec_file_is_run_and_only_absent_flags_are_left_out():
    """The spec's cases on flags its state does not hold all expect "off"; every other case is
    one of the parametrised ones above."""
    assert len(spec_files()) >= 22 and len(HELD) >= 270, (len(spec_files()), len(HELD))
    for name, flag in ABSENT:
        spec = json.loads((SPEC / name).read_text())
        for case in [*spec.get("tests", []), *spec.get("variantTests", [])]:
            if case["toggleName"] == flag:
                assert is_off(case["expectedResult"]), (name, case)
    assert len(ABSENT) <= 6, ABSENT

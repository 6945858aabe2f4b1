"""What Unleash stores for a change, built here: the "after" side of a preview.

A preview evaluates the flag as the server will hold it once the request is applied, not as it
was typed. The after state is built here, the way Unleash's feature-toggle service normalises
a write (`standardizeStrategyConfig`, `parametersWithDefaults` and `fixVariantWeights`, alike
in 6.10.1, 7.5.1 and 8.2.0), rather than read back from the server: Unleash's playground
evaluates only what is saved (evaluating an unsaved change is Enterprise's change-request
playground), and no admin route answers "what would you store" without storing it.

- Variants: the variable ones share what the fixed ones leave (1000 per mille), evenly, the
  first ones in the order sent getting one more each for the remainder; then all are sorted by
  name (`flagtui.contract.variant_order`). A variant whose `weightType` is neither `variable`
  nor `fix` is dropped, as Unleash drops it.
- A gradual rollout (`flexibleRollout`): `rollout` 100 when absent, `stickiness` the project's
  default stickiness when absent or empty, `groupId` the flag's name when absent or empty.

The same rules, applied to what the server already stores, would move the remainder to other
variants: they are for a proposed change only, never for a record read from the server.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flagtui.contract import VARIANT_WEIGHT_TOTAL, variant_order
from flagtui.preview.client_shape import PreviewError, Record, environment_of, plain

FLEXIBLE_ROLLOUT = "flexibleRollout"


def stored_variants(variants: Iterable[Record]) -> list[dict[str, Any]]:
    """`variants` as sent, as Unleash stores them: weights fixed, sorted by name.
    Raises PreviewError where Unleash refuses them (no variable variant, fixed over 1000)."""
    given = [plain(v) for v in variants]
    variable = [v for v in given if v.get("weightType") == "variable"]
    fixed = [v for v in given if v.get("weightType") == "fix"]
    if given and not variable:
        raise PreviewError('Unleash refuses these variants: none is "variable"')
    fixed_total = sum(int(v.get("weight") or 0) for v in fixed)
    if fixed_total > VARIANT_WEIGHT_TOTAL:
        said = f"the fixed weights add up to {fixed_total}, over {VARIANT_WEIGHT_TOTAL}"
        raise PreviewError(f"Unleash refuses these variants: {said}")
    share, remainder = divmod(VARIANT_WEIGHT_TOTAL - fixed_total, len(variable) or 1)
    shared = [{**v, "weight": share + (1 if i < remainder else 0)} for i, v in enumerate(variable)]
    return sorted([*shared, *fixed], key=lambda v: variant_order(str(v.get("name", ""))))


def stored_strategy(
    strategy: Record, flag_name: str, *, default_stickiness: str = "default"
) -> dict[str, Any]:
    """`strategy` as sent (the create or update body, or a model of it), as Unleash stores it.
    `default_stickiness`: the project's (Unleash's own default is `default`)."""
    out: dict[str, Any] = plain(strategy)
    parameters = dict(out.get("parameters") or {})
    if out.get("name") == FLEXIBLE_ROLLOUT:
        rollout = parameters.get("rollout")
        parameters["rollout"] = "100" if rollout is None else rollout
        parameters["stickiness"] = parameters.get("stickiness") or default_stickiness
        parameters["groupId"] = parameters.get("groupId") or flag_name
    out["parameters"] = parameters
    if out.get("variants"):
        out["variants"] = stored_variants(out["variants"])
    return out


def with_strategy(
    flag: Record, environment: str, strategy: Record, *, default_stickiness: str = "default"
) -> dict[str, Any]:
    """`flag`'s record with `strategy` (as sent) stored in `environment`: replacing the one of
    its id (keeping that one's place), or added last."""
    record: dict[str, Any] = plain(flag)
    name = str(record["name"])
    sent = stored_strategy(strategy, name, default_stickiness=default_stickiness)
    env = environment_of(record, environment)
    current = [dict(s) for s in env.get("strategies") or []]
    sent_id = sent.get("id")
    at = next((i for i, s in enumerate(current) if sent_id and s.get("id") == sent_id), None)
    if at is None:
        last = max((int(s.get("sortOrder") or 0) for s in current), default=-1)
        current.append({**sent, "sortOrder": last + 1})
    else:
        current[at] = {**sent, "sortOrder": current[at].get("sortOrder")}
    return _with_environment(record, environment, {**env, "strategies": current})


def with_variants(flag: Record, environment: str, variants: Iterable[Record]) -> dict[str, Any]:
    """`flag`'s record with `variants` (as sent) stored as `environment`'s variants."""
    record: dict[str, Any] = plain(flag)
    env = environment_of(record, environment)
    return _with_environment(record, environment, {**env, "variants": stored_variants(variants)})


def _with_environment(
    record: dict[str, Any], environment: str, replaced: dict[str, Any]
) -> dict[str, Any]:
    envs = [
        replaced if environment in (e.get("name"), e.get("environment")) else e
        for e in record.get("environments") or []
    ]
    return {**record, "environments": envs}

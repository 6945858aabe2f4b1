"""One flag in one environment, loaded into yggdrasil-engine (the evaluation core the official
SDKs embed): what an application gets for a context, and how a population splits.

The engine is asked with `check_variant`, which answers the flag's enabled state (as
`is_enabled` would) and its variant in one call, and counts nothing toward metrics; a
population asks it through `fast_path` (the same function, without the wrapper's extras).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from yggdrasil_engine.engine import UnleashEngine

from flagtui.preview.client_shape import PreviewError, Record, client_state, plain
from flagtui.preview.context import sdk_context
from flagtui.preview.fast_path import variant_asker

Context = Mapping[str, Any]


@dataclass(frozen=True)
class Evaluation:
    """What an SDK answers for one context: `is_enabled` and `get_variant`."""

    enabled: bool
    variant: str  # "disabled" when the flag is off or has no variant for this context
    variant_enabled: bool = False
    payload: Mapping[str, str] | None = None  # {type, value}, with the variant's payload


@dataclass(frozen=True)
class Change:
    """One context on the flag as it is and as proposed."""

    before: Evaluation
    after: Evaluation

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class Population:
    """How `users` synthetic userIds (`u-1` … `u-N`) split: on, and per variant name."""

    users: int
    enabled: int
    variants: Mapping[str, int] = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.enabled / self.users if self.users else 0.0


class Preview:
    """`flag` (an admin API record, or a proposed copy of one) in `environment`, with the
    server's `segments` and the `related` flags it depends on."""

    def __init__(
        self,
        flag: Record,
        environment: str,
        *,
        segments: Iterable[Record] = (),
        related: Sequence[Record] = (),
    ) -> None:
        self.name: str = plain(flag)["name"]
        self.environment = environment
        state = client_state(flag, environment, segments, related)
        self._engine = UnleashEngine()
        self._engine.take_state(json.dumps(state))
        if not self._engine.check_variant(self.name, {}).is_found:
            # The engine drops a feature it cannot read (no warning is returned for it).
            raise PreviewError(f"the evaluation engine could not read flag {self.name!r}")

    def evaluate(
        self, context: Context | None = None, *, now: datetime | None = None
    ) -> Evaluation:
        """`now`: the `currentTime` when the context has none (default: the present)."""
        asked = sdk_context(context, self.environment, now)
        found = self._engine.check_variant(self.name, asked).variant
        return Evaluation(
            enabled=found.feature_enabled,
            variant=found.name,
            variant_enabled=found.enabled,
            payload=found.payload or None,
        )

    def answers(
        self, users: int, context: Context | None = None, *, prefix: str = "u-"
    ) -> Iterator[tuple[str, Evaluation]]:
        """Each synthetic user's answer, userId `prefix`1 … `prefix`N, with `context` for the
        rest; one `currentTime` for them all."""
        base = sdk_context(context, self.environment, datetime.now(UTC))
        base.pop("userId", None)
        head = json.dumps(base)[:-1] + ', "userId": '  # each user's userId closes the object
        ask = variant_asker(self._engine, self.name)
        # The fast path hands out one dict per distinct answer (a flag has a handful): each is
        # made an Evaluation once (the dict kept, so that its id is not reused meanwhile).
        seen: dict[int, tuple[dict[str, Any], Evaluation]] = {}
        for i in range(1, users + 1):
            user = f"{prefix}{i}"
            answer = ask(f"{head}{json.dumps(user)}}}".encode())
            hit = seen.get(id(answer))
            if hit is None or hit[0] is not answer:
                if len(seen) > 64:  # new dicts each time: through the wrapper
                    seen.clear()
                said = Evaluation(
                    enabled=bool(answer.get("featureEnabled")),
                    variant=str(answer.get("name", "disabled")),
                    variant_enabled=bool(answer.get("enabled")),
                    payload=answer.get("payload") or None,
                )
                seen[id(answer)] = (answer, said)
            else:
                said = hit[1]
            yield user, said

    def population(
        self, users: int = 10_000, context: Context | None = None, *, prefix: str = "u-"
    ) -> Population:
        """How `answers` split."""
        enabled, variants = 0, Counter[str]()
        for _, answer in self.answers(users, context, prefix=prefix):
            enabled += answer.enabled
            variants[answer.variant] += 1
        return Population(users=users, enabled=enabled, variants=dict(variants))


def evaluate(
    flag: Record,
    environment: str,
    context: Context | None = None,
    *,
    segments: Iterable[Record] = (),
    related: Sequence[Record] = (),
) -> Evaluation:
    return Preview(flag, environment, segments=segments, related=related).evaluate(context)


def before_after(
    before: Record,
    after: Record,
    environment: str,
    context: Context | None = None,
    *,
    segments: Iterable[Record] = (),
    related: Sequence[Record] = (),
) -> Change:
    """The same context (one `currentTime`) evaluated on the flag as it is and as proposed."""
    now, segments = datetime.now(UTC), list(segments)
    before_side, after_side = (
        Preview(f, environment, segments=segments, related=related) for f in (before, after)
    )
    return Change(
        before=before_side.evaluate(context, now=now), after=after_side.evaluate(context, now=now)
    )


def population(
    flag: Record,
    environment: str,
    users: int = 10_000,
    context: Context | None = None,
    *,
    segments: Iterable[Record] = (),
    related: Sequence[Record] = (),
) -> Population:
    preview = Preview(flag, environment, segments=segments, related=related)
    return preview.population(users, context)

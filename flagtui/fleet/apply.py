"""Sending a plan (`plan.make_plan`'s, the one `flagtui plan` shows) to the server, object by
object through the client's own writes: context fields created or changed first, then
segments created or changed (`apply_objects`: a new segment's id is the one the strategies
naming it are sent with), then flags created or their fields patched (tags, links;
dependencies once every flag exists), then each environment's
strategies (updated in place, added, removed, in the file's order, then the
order set), then its variants, and every environment switched on or off last, so no flag is
served half-configured; pruned flags are archived at the end.

Not Unleash's features-batch import route: on 6.10.1, 7.5.1 and 8.2.0 its export side lists
strategies without their sort order, and an import would give the server an order that is not
the file's. Each write here goes through the route that keeps it.

What the server cannot keep (a flag's links where it has none) is named by `unsupported`
before anything is sent. A write that fails stops the apply:
the result says each step's outcome (done, refused and why, unknown), and what was not sent."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flagtui.api import errors
from flagtui.fleet.apply_objects import (
    ObjectWriter,
    Step,
    object_steps,
    read_back_objects,
    refusals,
    writes_links,
)
from flagtui.fleet.flag_shape import flag_record, flag_shape, strategy_shape
from flagtui.fleet.plan_since import check_unchanged

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import ServerInfo
    from flagtui.api.rollout_catalog import RolloutCatalog

PATCHED = ("type", "description", "impressionData")


def unsupported(planned: Mapping[str, Any], server: ServerInfo | None = None) -> list[str]:
    """What the plan changes that this server cannot keep (links on a server without them):
    one line each. Empty: everything can be sent."""
    return refusals(planned, server)


def where(step: Mapping[str, Any]) -> str:
    """A step (`Step.as_json()`) named: its flag, what it writes, and where; a context
    field's or a segment's: "create segment beta"."""
    if not step["project"]:
        return f"{step['what']} {step['flag']}"
    env = f" in {step['environment']}" if "environment" in step else ""
    return f"{step['project']}/{step['flag']} {step['what']}{env}"


def step_line(step: Step) -> str:
    """A step's outcome in words: done, refused (why), unknown (why), or not sent; the
    requests it sent."""
    why = f" ({step.why})" if step.why else ""
    sent = f" [{', '.join(step.requests)}]" if step.requests else ""
    return f"{step.outcome}: {where(step.as_json())}{sent}{why}"


def steps(planned: Mapping[str, Any]) -> list[Step]:
    """Every write of the plan, in the order it is sent: context fields, segments, flags."""
    first = object_steps(planned)
    linked: list[Step] = []
    rollouts: list[Step] = []
    switches: list[Step] = []
    pruned: list[Step] = []
    for flag in planned["flags"]:
        p, n, action = flag["project"], flag["name"], flag["action"]
        if action == "prune":
            pruned.append(Step(p, n, "archive"))
            continue
        if action not in ("create", "update"):
            continue
        desired = flag["desired"]
        changed = {c["what"] for c in flag["changes"]}
        if action == "create":
            first.append(Step(p, n, "create"))
        elif changed & set(PATCHED):
            first.append(Step(p, n, "patch " + ", ".join(k for k in PATCHED if k in changed)))
        new = action == "create"
        if (new and desired.get("tags")) or "tags" in changed:
            first.append(Step(p, n, "tags"))
        if writes_links(flag):
            first.append(Step(p, n, "links"))
        if (new and desired.get("dependencies")) or "dependencies" in changed:
            linked.append(Step(p, n, "dependencies"))  # once every flag of the file exists
        for env, shape in desired["environments"].items():
            if (new and shape.get("strategies")) or f"strategies in {env}" in changed:
                rollouts.append(Step(p, n, "strategies", env))
            if (new and shape.get("variants")) or f"variants in {env}" in changed:
                rollouts.append(Step(p, n, "variants", env))
            if (new and shape["enabled"]) or f"enabled in {env}" in changed:
                switches.append(Step(p, n, "on" if shape["enabled"] else "off", env))
    return [*first, *linked, *rollouts, *switches, *pruned]


class _Sender:
    def __init__(self, client: AdminClient, catalog: RolloutCatalog, dry_run: bool) -> None:
        self.client = client
        self.catalog = catalog
        self.dry_run = dry_run
        self.stale = False
        self.ids = {s.name: int(s.id) for s in catalog.segments}
        self.names = {int(s.id): s.name for s in catalog.segments}
        self.objects = ObjectWriter(client, self.ids, self.names)

    async def send(self, step: Step, desired: Mapping[str, Any]) -> None:
        c, p, n, env = self.client, step.project, step.flag, step.environment
        if self.stale and (step.what in ("strategies", "variants") or step.kind == "segment"):
            self.catalog, self.stale = await c.rollouts.catalog(), False
        if step.what == "create":
            step.requests.append("create flag")
            await c.features.create(p, n, type=desired.get("type"),
                                    description=desired.get("description"),
                                    impression_data=bool(desired.get("impressionData")),
                                    check_name=not self.dry_run)  # fmt: skip
        elif step.what.startswith("patch "):
            ops = [{"op": "replace", "path": f"/{k}", "value": desired.get(k, "")}
                   for k in step.what.removeprefix("patch ").split(", ")]  # fmt: skip
            for op in ops:
                if op["path"] == "/impressionData":
                    op["value"] = bool(desired.get("impressionData"))
            step.requests.append("patch flag")
            await c.features.patch(p, n, ops)
        elif step.kind is not None:  # a context field or a segment
            objects = self.objects
            write = objects.context_field if step.kind == "context field" else objects.segment
            await write(step, desired, self.catalog)
            self.stale = True  # the catalog read before it lacks the new or changed object
        elif step.what == "links":
            await self.objects.links(step, p, n, desired)
        elif step.what == "tags":
            await self._tags(step, n, desired)
        elif step.what == "dependencies":
            await self._dependencies(step, p, n, desired)
        elif step.what == "strategies":
            assert env is not None
            await self._strategies(step, p, n, env, desired)
        elif step.what == "variants":
            assert env is not None
            from flagtui.api.rollout_models import Variant

            wanted = desired["environments"][env].get("variants") or []
            step.requests.append("set variants")
            await c.rollouts.set_variants(p, n, env, [Variant.model_validate(v) for v in wanted],
                                          catalog=self.catalog)  # fmt: skip
        elif step.what in ("on", "off"):
            assert env is not None
            step.requests.append(f"switch {step.what}")
            await c.features.set_environment_enabled(p, n, env, step.what == "on")
        elif step.what == "archive":
            step.requests.append("archive flag")
            await c.features.archive(p, n)

    async def _tags(self, step: Step, n: str, desired: Mapping[str, Any]) -> None:
        from flagtui.api.models import Tag

        have = {(t.type, t.value) for t in await self.client.tags.list(n)}
        want = {(str(t["type"]), str(t["value"])) for t in desired.get("tags") or []}
        add = [Tag(type=t, value=v) for t, v in sorted(want - have)]
        remove = [Tag(type=t, value=v) for t, v in sorted(have - want)]
        if add or remove:
            step.requests.append("change tags")
            await self.client.tags.send(await self.client.tags.plan(n, add, remove))

    async def _dependencies(self, step: Step, p: str, n: str, desired: Mapping[str, Any]) -> None:
        deps = self.client.dependencies
        want = list(desired.get("dependencies") or [])
        now = flag_shape(await self.client.features.get(p, n), {}, [])["dependencies"]
        if now == want:
            return
        if now:  # Unleash OSS: one parent a flag; changed, it goes first
            removal = await deps.plan_remove(p, n)
            step.requests.append("remove dependency")
            await deps.send(removal)
        for d in want:
            added = await deps.plan_add(p, n, str(d["feature"]), enabled=d.get("enabled", True),
                                        variants=list(d.get("variants") or []))  # fmt: skip
            step.requests.append(f"add dependency on {d['feature']}")
            await deps.send(added)

    async def _strategies(
        self, step: Step, p: str, n: str, env: str, desired: Mapping[str, Any]
    ) -> None:
        from flagtui.api.rollout_models import Strategy

        record = flag_record({"environments": {env: desired["environments"][env]}}, self.ids)
        wanted = [Strategy.model_validate({k: v for k, v in s.items() if k != "sortOrder"})
                  for s in record["environments"][0]["strategies"]]  # fmt: skip
        shapes = desired["environments"][env].get("strategies") or []
        current = await self.client.rollouts.list(p, n, env)
        order: list[str] = []
        for i, strategy in enumerate(wanted):
            if i < len(current):
                have = current[i]
                assert have.id is not None
                order.append(have.id)
                if strategy_shape(have, self.names) == shapes[i]:
                    continue
                step.requests.append(f"update strategy {i + 1}")
                await _unless_same(self.client.rollouts.update(
                    p, n, env, strategy.model_copy(update={"id": have.id}),
                    catalog=self.catalog, opened_on=have))  # fmt: skip
            else:
                step.requests.append(f"add strategy {i + 1}")
                added = await self.client.rollouts.add(p, n, env, strategy, catalog=self.catalog)
                order.append(str(added.id))
        for extra in current[len(wanted) :]:
            step.requests.append(f"remove strategy {extra.id}")
            await self.client.rollouts.remove(p, n, env, str(extra.id))
        if len(order) > 1:
            step.requests.append("set strategy order")
            await _unless_same(self.client.rollouts.set_order(p, n, env, order))


async def _unless_same(write: Awaitable[Any]) -> None:
    with contextlib.suppress(errors.NothingToSend):
        await write


def outcome_of(exc: BaseException) -> str:
    return "unknown" if isinstance(exc, errors.OutcomeUnknown) else "refused"


async def apply_plan(
    client: AdminClient,
    planned: Mapping[str, Any],
    *,
    dry_run: bool = False,
    progress: Callable[[Step], None] | None = None,
    anyway: bool = False,
) -> tuple[dict[str, Any], BaseException | None]:
    """Send the plan's writes in order; stop at the first that fails. The result (each step's
    outcome, and each flag as read back afterwards) and the error that stopped it, if one did.
    First, the objects it writes are read again: one not as the plan said raises EditConflict
    before anything is sent (`plan_since`), unless `anyway` (the admin chose to send it over
    the change)."""
    if not dry_run and not anyway:
        await check_unchanged(client, planned)  # EditConflict: nothing sent
    catalog = await client.rollouts.catalog()
    sender = _Sender(client, catalog, dry_run)
    desired = {(f["project"], f["name"]): f.get("desired") or {} for f in planned["flags"]}
    objects = {("context field", f["name"]): f["desired"] for f in planned["contextFields"]}
    objects.update({("segment", s["name"]): s["desired"] for s in planned["segments"]})
    todo = steps(planned)
    failed: BaseException | None = None
    for step in todo:
        key = (step.project, step.flag) if step.kind is None else (step.kind, step.flag)
        wanted = desired[key] if step.kind is None else objects[key]
        try:
            await sender.send(step, wanted)
        except errors.FlagtuiError as exc:
            step.outcome, step.why, failed = outcome_of(exc), str(exc), exc
            if progress:
                progress(step)
            break
        step.outcome = "done"
        if progress:
            progress(step)
    read_back = await read_back_objects(client, planned, todo)
    read_back += await _read_back(client, planned, todo, sender.names)
    result = {
        "complete": failed is None,
        "steps": [s.as_json() for s in todo],
        "applied": sum(1 for s in todo if s.outcome == "done"),
        "notApplied": sum(1 for s in todo if s.outcome != "done"),
        "readBack": read_back,
    }
    return result, failed


def _as_read(desired: Mapping[str, Any], names: dict[int, str], envs: Sequence[str]) -> dict:
    """The file's flag as a read of it would say it (segments and tags in their order), a
    segment the server lacks given a stand-in id."""
    from flagtui.api.models import Feature

    ids = {n: i for i, n in names.items()}
    used = {n for env in desired["environments"].values() for s in env.get("strategies") or []
            for n in s.get("segments") or []}  # fmt: skip
    for n in sorted(used - ids.keys()):
        ids[n] = -1 - len(ids)
    shown = {i: n for n, i in ids.items()}
    return flag_shape(Feature.model_validate(flag_record(desired, ids)), shown, envs)


async def _read_back(
    client: AdminClient, planned: Mapping[str, Any], todo: Sequence[Step], names: dict[int, str]
) -> list[dict[str, Any]]:
    """Each flag a step touched, read again: as the file has it, or what still differs."""
    found = []
    touched = sorted(
        {(s.project, s.flag) for s in todo if s.requests and s.project and s.what != "archive"}
    )
    envs = planned["environments"]
    for project, name in touched:
        desired = next(f["desired"] for f in planned["flags"]
                       if (f["project"], f["name"]) == (project, name))  # fmt: skip
        want = _as_read(desired, names, envs)
        try:
            now = flag_shape(await client.features.get(project, name), names, envs)
        except errors.FlagtuiError as exc:
            found.append({"project": project, "name": name, "state": "unknown", "why": str(exc)})
            continue
        keys = sorted(k for k in {*want, *now} if k != "environments")
        # links: compared where both have them (not every version keeps them), as plan does
        differs = [k for k in keys if want.get(k) != now.get(k)
                   and (k != "links" or (k in want and k in now))]  # fmt: skip
        for env, shape in want["environments"].items():
            have = now["environments"].get(env) or {}
            differs += [f"{k} in {env}" for k in ("enabled", "strategies", "variants")
                        if shape.get(k, []) != have.get(k, [])]  # fmt: skip
        entry: dict[str, Any] = {"project": project, "name": name}
        entry["state"] = "as the file" if not differs else "differs"
        if differs:
            entry["differs"] = differs
        found.append(entry)
    return found

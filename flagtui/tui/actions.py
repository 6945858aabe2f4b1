"""The actions the command palette finds by name, from any area: a declarative registry.

Each entry says what a person calls the action (its title and the words they type), where it
is performed and whether it first needs a flag. The palette (`flagtui/tui/palette.py`) matches
a query against the title and the words, and runs the entry:
- `flag` set: a picker asks for a flag (fed by the server's feature search), then the flag's
  detail opens and runs `action` (a `FeatureDetailScreen.action_<action>`) once it is read;
- `area` set: that area opens, then runs `action` on its screen, if any;
- `screen` set ("module:Class", imported when picked): that view opens over the current
  area, made with the area's project (`Class(project)`);
- none of these: `action` is an app action (`FlagtuiApp.action_<action>`).
`write` entries are hidden on read-only profiles; `enterprise_only` ones say they need it.

To add an action: ONE entry below, naming an action that exists (a string naming a method
that does not would fail only when someone picks it). Module of its own, below the screens:
it names screens and actions as strings, as `areas.py` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FlagKind = Literal["live", "archived", "completed"]
"""Which flags the picker offers: live ones, archived ones, or live ones in stage completed."""


@dataclass(frozen=True)
class PaletteAction:
    title: str
    help: str
    words: tuple[str, ...]
    action: str | None = None
    area: str | None = None
    flag: FlagKind | None = None
    screen: str | None = None
    write: bool = False
    enterprise_only: bool = False

    @property
    def searched(self) -> str:
        """What a query is matched against: the title, then every word."""
        return " · ".join((self.title, *self.words))


PALETTE_ACTIONS: tuple[PaletteAction, ...] = (
    PaletteAction("Create a flag", "Features: a new flag in the area's project (its name "
                  "checked by the server), then its detail for the rollout",
                  ("create flag", "new flag", "add flag", "feature flag"),
                  action="create_flag", area="features", write=True),
    PaletteAction("Patch a flag…", "Change a flag's description, type, stale or impression data",
                  ("patch", "edit", "description", "stale", "impression data", "type"),
                  action="edit", flag="live", write=True),
    PaletteAction("Archive a flag…", "Archive a flag as the web UI does (asks first)",
                  ("archive", "retire", "remove flag"), action="archive", flag="live",
                  write=True),
    PaletteAction("Revive an archived flag…", "Bring an archived flag back (environments off)",
                  ("revive", "unarchive", "restore"), action="revive", flag="archived",
                  write=True),
    PaletteAction("Uncomplete a flag…", "Take a completed flag back to its previous stage",
                  ("uncomplete", "lifecycle", "completed"), action="uncomplete",
                  flag="completed", write=True),
    # what the web UI offers beside the contract (issue 46): flag_op_keys in the detail
    PaletteAction("Clone a flag…", "A copy under a new name: strategies and variants, every "
                  "environment off", ("clone", "copy flag", "duplicate"),
                  action="flag_op('clone')", flag="live", write=True),
    PaletteAction("Mark a flag completed…", "Kept, kept with a variant, or discarded, as the "
                  "web UI's Mark completed", ("complete", "completed", "lifecycle", "kept",
                  "discarded", "done with"), action="flag_op('complete')", flag="live",
                  write=True),
    PaletteAction("Delete an archived flag for good…", "Irreversible (its name typed): only "
                  "its events remain", ("delete", "delete flag", "remove for good", "purge"),
                  action="flag_op('delete')", flag="archived", write=True),
    PaletteAction("Copy strategies to another environment…", "As the web UI's Copy to "
                  "environment: the requests and who gets it there shown first",
                  ("copy strategy", "copy to environment", "strategy", "promote"),
                  action="flag_op('copy_strategies')", flag="live", write=True),
    PaletteAction("Change a type's lifetime", "Feature types: pick a type, e edits its lifetime",
                  ("lifetime", "feature type", "potentially stale after"),
                  area="feature-types", write=True),
    PaletteAction("Remove an environment from the project",
                  "Project environments: pick one, d removes it (type its name)",
                  ("remove environment", "unlink environment", "delete environment"),
                  area="environments", write=True),
    PaletteAction("Grant project roles", "Project access: check users or groups and roles",
                  ("grant", "access", "role", "permission"), area="access", write=True,
                  enterprise_only=True),
    PaletteAction("Delete a change request", "Change requests: pick one, d deletes it",
                  ("delete change request", "change request", "cr"), area="change-requests",
                  write=True, enterprise_only=True),
    PaletteAction("Failed deliveries", "Failures: every integration's failed deliveries, newest "
                  "first", ("failed", "failures", "alert", "errors", "broken", "incident",
                            "on call"), area="failures"),
    PaletteAction("Integrations and their deliveries", "Integrations: failures per "
                  "integration; Enter opens its deliveries", ("webhook", "deliveries",
                  "integration", "addon", "slack", "teams", "datadog"), area="integrations"),
    PaletteAction("Search events", "The event log, with the flag's name box focused",
                  ("search events", "event log", "audit", "history", "who changed",
                   "changed by"), action="focus_flag", area="events"),
    PaletteAction("Search users", "Users, with the search box focused",
                  ("search users", "find user", "user"), action="focus_search", area="users"),
    PaletteAction("Switch profile…", "Another server or account from the config's profiles",
                  ("switch profile", "profile", "server", "context", "connect"),
                  action="switch_profile"),
    PaletteAction("Toggle a flag in an environment…", "Turn a flag on or off in one "
                  "environment", ("toggle", "enable", "disable", "turn on", "turn off"),
                  action="toggle_environment", flag="live", write=True),
    PaletteAction("Roll a flag back to 0 %…", "Set the gradual rollouts of one environment "
                  "to 0 % (the requests shown first; production asks)",
                  ("rollout", "roll back", "rollback", "percentage", "gradual rollout",
                   "kill switch"), action="roll_back", flag="live", write=True),
    PaletteAction("Disable a flag's strategy…", "Disable one strategy of one environment (the "
                  "request shown first; production asks)", ("strategy", "disable strategy",
                  "activation strategy"), action="disable_strategy", flag="live", write=True),
    # the strategy form and keys (issue 25, item 2)
    PaletteAction("Add a strategy to a flag…", "A form: type, rollout %, stickiness, "
                  "constraints, segments; the request and a preview with the SDKs' engine "
                  "shown first", ("rollout", "strategy", "add strategy", "new strategy",
                  "gradual rollout", "percentage", "constraint", "segment", "targeting"),
                  action="add_strategy", flag="live", write=True),
    PaletteAction("Edit a flag's strategy…", "Rollout %, stickiness, groupId, constraints, "
                  "segments in a form; the request and who gets it (before → after) shown first",
                  ("rollout", "strategy", "edit strategy", "percentage", "stickiness",
                   "constraint", "segment", "targeting", "who gets"),
                  action="edit_strategy", flag="live", write=True),
    PaletteAction("Enable a flag's strategy…", "Enable a disabled strategy of one environment",
                  ("strategy", "enable strategy"), action="enable_strategy", flag="live",
                  write=True),
    PaletteAction("Remove a flag's strategy…", "Remove one strategy of one environment (the "
                  "request shown first)", ("strategy", "remove strategy", "delete strategy"),
                  action="remove_strategy", flag="live", write=True),
    PaletteAction("Reorder a flag's strategies…", "Move one strategy up in its environment's "
                  "order (J in the detail moves one down)", ("strategy", "reorder", "order",
                  "move strategy", "sort order"), action="move_strategy_up", flag="live",
                  write=True),
    PaletteAction("Edit a flag's variants…", "The variants of one environment: names, weights, "
                  "payloads, stickiness (the request and a preview shown first; production asks)",
                  ("variant", "variants", "weight", "payload", "a/b", "experiment"),
                  action="edit_variants", flag="live", write=True),
    PaletteAction("Tag a flag…", "Add or remove a flag's tags (TYPE:VALUE; the request shown "
                  "first); CLI: flagtui tag add|remove", ("tag", "tags", "label", "untag"),
                  action="edit_tags", flag="live", write=True),
    PaletteAction("Make a flag depend on another…", "A parent flag: the child is on only where "
                  "the parent is (who gets it per environment shown first); empty removes it",
                  ("depend", "dependency", "parent", "prerequisite", "child", "undepend"),
                  action="edit_parent", flag="live", write=True),
    PaletteAction("Read a flag's rollout…", "Opens the flag's detail: each environment's "
                  "strategies, constraints, segments and variants in words (reads only)",
                  ("rollout", "strategy", "variant", "constraint", "segment", "targeting"),
                  flag="live"),
    PaletteAction("Who gets a flag? (CLI: flagtui playground)", "Opens the flag's detail, its "
                  "rules in words; evaluating a context is the CLI's `flagtui playground`",
                  ("playground", "who gets", "evaluate", "context"), flag="live"),
    # many flags, many servers (issue 27, items 2 and 3)
    PaletteAction("Stale flags of the project", "The stale and potentially stale flags, oldest "
                  "first: age, type lifetime, creator, last seen, on in production",
                  ("stale", "potentially stale", "cleanup", "clean up", "old flags", "unused"),
                  screen="flagtui.tui.screens.stale_flags:StaleFlagsScreen"),
    PaletteAction("Drift between servers or environments", "Two profiles, or two environments "
                  "of this server: flags on one side only, types, on/off, strategies, variants",
                  ("drift", "diff", "compare", "differences", "staging", "servers", "promote"),
                  screen="flagtui.tui.screens.drift:DriftScreen"),
    PaletteAction("Set a project's default strategy", "Project environments: pick one, I sets "
                  "the rollout a flag switched on there with no strategy gets (no flag changes"
                  " now)",
                  ("default strategy", "default rollout", "new flags", "project default"),
                  action="default_strategy", area="environments", write=True),
    PaletteAction("Link an environment to the project", "Project environments: link one "
                  "back", ("link environment", "add environment"),
                  action="link_environment", area="environments", write=True),
)  # fmt: skip

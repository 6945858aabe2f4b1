"""Every command of `flagtui`: its words, the line `--help` lists it with, and the module of
flagtui/cli/commands/ that holds its options and its run function.

This list is all the command line reads to build itself (flagtui/cli/parser.py): a command's
module is imported only when that command is parsed, so `flagtui --help` or one command never
pays for the others. Adding a command: its module here (feature_show.py is a read, env_link.py
a write), its entry below, its tests in tests/cli/commands/test_<module>.py (a golden output
in tests/cli/commands/golden/), and docs/commands.md written again (`python -m
flagtui.cli.reference docs/commands.md`).

A command's module is imported for its `--help`: what it imports at its top loads no UI, HTTP,
model, database or evaluation library (tests/cli/test_start_imports.py); what its run needs of
those it imports in its run function.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One command."""

    words: str  # as typed: "feature list", "collect"
    summary: str  # its line in `--help`, and (scriptable ones) its description
    module: str  # under flagtui.cli.commands
    options: str = "options"  # the module's function adding its options (a pair shares one)
    scriptable: bool = True  # -P, -o, the exit codes in --help; run by cli/runner.py
    own_options: bool = False  # its options parsed by its module (the sandbox's), -h too


NOUNS = {  # and the groups of verbs under a noun
    "feature": "feature flags",
    "feature strategy": "a flag's strategies in one environment (its rollout)",
    "feature variants": "a flag's variants in one environment (Unleash deprecated them for "
    "strategy variants: only a flag that has some already can change them)",
    "tag": "a flag's tags (TYPE:VALUE)",
    "tag type": "the kinds of tag the server has",
    "project": "projects",
    "project default-strategy": "the strategy a flag switched on with none gets, per environment",
    "event": "the event log",
    "integration": "integrations (Unleash addons)",
    "user": "users",
    "token": "API tokens: SDK and frontend keys (a secret is shown once, when created)",
    "type": "feature types",
    "context": "context fields (what constraints and custom stickiness name)",
    "segment": "segments: reusable sets of constraints strategies attach",
    "env": "a project's environments",
    "access": "project access (Enterprise)",
    "role": "roles (for access grant)",
    "group": "user groups (Enterprise; for access grant)",
    "cr": "change requests (Enterprise)",
}

FAILURES_HELP = (
    "deliveries that failed, across integrations, newest first: from the delivery archive when "
    "there is one (`flagtui collect`), else from the server, which keeps only recent deliveries "
    "(real Unleash: about 100 of the last 2 hours, plus the latest per integration)"
)
COLLECT_HELP = (
    "keep every integration delivery in an archive (SQLite in the user data dir, one per "
    "server, or the profile's archive_url), polling until stopped (SIGTERM/SIGINT: exit 0)"
)

# In the order `--help` lists them (a noun where its first verb is).
COMMANDS = (
    Entry("sandbox", "serve the embedded sandbox server", "sandbox", scriptable=False,
          own_options=True),
    Entry("demo", "start the sandbox with demo data and open the TUI on it", "demo",
          scriptable=False),
    Entry("login", "store a token for a profile (read from a prompt), or with --user a personal"
          " access token made for you", "login", scriptable=False),
    Entry("profiles", "list profiles (never shows tokens)", "profiles", scriptable=False),
    Entry("completion", "print the shell completion script (bash, zsh or fish)", "completion",
          scriptable=False),
    Entry("diff", "what differs between two servers (-P twice) or two environments (--env"
          " twice): flags on one side only, types, on/off, strategies, variants", "diff",
          scriptable=False),
    Entry("export",
          "flags as code: a project's flags (or named ones) in one or more environments as a"
          " TOML file to review (no server ids, stable order: byte-identical when unchanged)",
          "export"),
    Entry("plan",
          "what applying a flags file would change, field by field, and who gets each changed"
          " flag before and after (exit 0: nothing to do, 1: changes planned)", "plan"),
    Entry("apply",
          "make the server what a flags file says: plan's plan, asked once, sent object by"
          " object (context fields, segments, flags and their links, then strategies in the"
          " file's order and variants, on/off last), each outcome read back; each object's own"
          " route, not Unleash's features-batch import (it loses the strategies' order); links"
          " on a server without them (before Unleash 7) refused before sending",
          "apply"),
    Entry("promote",
          "export, plan and apply in one: one server's flags made another's (-P twice, the"
          " source first) or one environment's another's (--env twice), projects renamed with"
          " --rewrite-project; the plan shown, asked once, sent and read back as apply does"
          " (--dry-run: the plan only)",
          "promote", scriptable=False),
    Entry("feature list", "list or search flags", "feature_list"),
    Entry("feature show", "one flag, in full", "feature_show"),
    Entry("feature patch", "change a flag with a JSON patch", "feature_patch"),
    Entry("feature uncomplete", "mark a completed flag as not completed", "feature_uncomplete"),
    Entry("feature archive",
          "archive flags as the web UI does (feature-archived event, lifecycle archived);"
          " several names or --stdin: one plan, each flag's own outcome; confirm, or --yes",
          "archived_flags", options="archive_options"),
    Entry("feature revive",
          "bring archived flags back (several names or --stdin); as Unleash does, every"
          " environment comes back off",
          "archived_flags", options="revive_options"),
    Entry("feature clone",
          "copy a flag under a new name, as the web UI's clone: strategies and variants per"
          " environment, every environment off; the name checked as `feature create` does",
          "feature_clone"),
    Entry("feature delete",
          "delete archived flags for good (irreversible; a live flag is refused: archive it"
          " first); type the name, or --yes", "feature_delete"),
    Entry("feature complete",
          "mark a flag completed: kept (--variant: the variant kept) or discarded",
          "feature_complete"),
    Entry("feature enable",
          "switch flags on in one environment (several names or --stdin: one plan;"
          " production: confirm, or --yes)",
          "feature_switch", options="enable_options"),
    Entry("feature disable",
          "switch flags off in one environment (several names or --stdin: one plan;"
          " production: confirm, or --yes)",
          "feature_switch", options="disable_options"),
    Entry("feature stale",
          "a project's stale and potentially stale flags, oldest first: age, type lifetime,"
          " creator, last seen, on in production", "feature_stale"),
    Entry("feature mark-stale",
          "mark flags stale (several names or --stdin: one plan, each flag's own outcome)",
          "feature_mark_stale", options="mark_options"),
    Entry("feature unmark-stale",
          "mark flags not stale (several names or --stdin: one plan, each flag's own outcome)",
          "feature_mark_stale", options="unmark_options"),
    Entry("feature create",
          "create a flag, its name checked by the server first; every environment starts off",
          "feature_create"),
    Entry("feature strategies",
          "a flag's strategies per environment in the order they are evaluated, in words",
          "feature_strategies"),
    Entry("feature strategy add",
          "add a strategy in one environment: a gradual rollout unless --type says otherwise"
          " (production: confirm, or --yes)", "strategy_add"),
    Entry("feature strategy set",
          "change one strategy: rollout, stickiness, group, parameters, constraints, segments,"
          " variants, title (production: confirm, or --yes)", "strategy_set"),
    Entry("feature strategy disable",
          "disable one strategy; with no enabled strategy left Unleash switches the"
          " environment off (production: confirm, or --yes)", "strategy_switch",
          options="disable_options"),
    Entry("feature strategy enable", "enable one strategy (production: confirm, or --yes)",
          "strategy_switch", options="enable_options"),
    Entry("feature strategy remove",
          "remove one strategy; with no enabled strategy left Unleash switches the environment"
          " off (production: confirm, or --yes)", "strategy_remove"),
    Entry("feature strategy copy",
          "copy strategies to another environment, as the web UI's \"Copy to environment\","
          " with who gets the flag there before and after (production: confirm, or --yes)",
          "strategy_copy"),
    Entry("feature strategy order",
          "evaluate the strategies named first, in that order, the others after them"
          " (production: confirm, or --yes)", "strategy_order"),
    Entry("feature variants set",
          "replace a flag's variants in one environment (production: confirm, or --yes)",
          "variants_set"),
    Entry("feature depend",
          "make a flag depend on a parent flag of its project (on only where the parent is on,"
          " or off, or gives a variant); who gets it per environment previewed first",
          "feature_depend", options="depend_options"),
    Entry("feature undepend",
          "remove a flag's dependency on its parent; who gets it per environment previewed"
          " first", "feature_depend", options="undepend_options"),
    Entry("tag list", "a flag's tags", "tag_read"),
    Entry("tag add",
          "tag flags (several names or --stdin: one request); only tags a flag lacks are sent",
          "tag_write", options="add_options"),
    Entry("tag remove",
          "untag flags (several names or --stdin: one request); only tags a flag has are sent",
          "tag_write", options="remove_options"),
    Entry("tag type list", "the server's tag types", "tag_read", options="type_list_options"),
    Entry("tag type create", "create a tag type", "tag_type_create"),
    Entry("project default-strategy show",
          "the strategy a flag switched on in an environment with no strategy gets",
          "project_default_strategy", options="show_options"),
    Entry("project default-strategy set",
          "set it (a gradual rollout); changes no flag now, only flags switched on later with"
          " no strategy (production: confirm, or --yes)",
          "project_default_strategy", options="set_options"),
    Entry("playground",
          "what SDKs answer for a context (or N userIds), evaluated locally with their engine"
          " and checked against the server's playground", "playground"),
    Entry("event search", "search events, newest first", "event_search"),
    Entry("integration list", "integration configurations", "integration_list"),
    Entry("integration providers",
          "the kinds of integration the server offers and the parameters each takes",
          "integration_providers"),
    Entry("integration deliveries", "an integration's recent deliveries, newest first",
          "integration_deliveries"),
    Entry("integration probe",
          "try an integration's target from this machine (DNS, TCP, TLS, the HTTP status of a"
          " HEAD without the payload), each step timed, its URL masked; Unleash's server may"
          " see the network differently", "integration_probe"),
    Entry("integration enable", "enable an integration", "integration_switch",
          options="enable_options"),
    Entry("integration disable", "disable an integration", "integration_switch",
          options="disable_options"),
    Entry("integration create",
          "configure an integration (checked against the provider; secrets asked without echo,"
          " or read from stdin, a file or the environment)",
          "integration_write", options="create_options"),
    Entry("integration edit", "change an integration's parameters, events, projects...",
          "integration_write", options="edit_options"),
    Entry("integration delete",
          "delete an integration and its delivery history (disable keeps it; confirm, or --yes)",
          "integration_delete"),
    Entry("failures", FAILURES_HELP, "failures"),
    Entry("collect", COLLECT_HELP, "collect"),
    Entry("user search", "find users by name, username or email", "user_search"),
    Entry("user create",
          "add a user with a root role (a password asked without echo or read from stdin, or"
          " none)", "user_write", options="create_options"),
    Entry("user role", "change a user's root role (Admin, Editor, Viewer...)", "user_write",
          options="role_options"),
    Entry("token list",
          "API tokens: type, projects, environment, created, last seen, orphaned or legacy;"
          " secrets masked", "api_tokens", options="list_options"),
    Entry("token create",
          "create an API token; its secret is printed this once (production: confirm, or --yes)",
          "api_tokens", options="create_options"),
    Entry("token revoke",
          "revoke an API token, by name or ref: SDKs using it stop getting flags (confirm the"
          " typed name, or --yes)", "api_tokens", options="revoke_options"),
    Entry("type list", "feature types and their lifetimes", "type_list"),
    Entry("type lifetime", "days until flags of a type are potentially stale", "type_lifetime"),
    Entry("context list", "context fields: legal values, stickiness, how many flags use each",
          "context_fields", options="list_options"),
    Entry("context show", "one context field and where it is used (flags, strategies per"
          " environment)", "context_fields", options="show_options"),
    Entry("context create", "create a context field (legal values, stickiness)",
          "context_write", options="create_options"),
    Entry("context edit",
          "change a context field's description, legal values or stickiness; SDKs never"
          " receive context fields, so no flag's evaluation changes: it names the constraints"
          " whose values would no longer be legal values (Unleash refuses to save those"
          " strategies again unchanged); the sort order becomes 0, as Unleash's edit sets it",
          "context_write", options="edit_options"),
    Entry("context delete",
          "delete a context field; says where it is used, and then asks for its name on any"
          " profile (confirm, or --yes; Unleash 7.5.1 and 8.2.0 refuse while flags use it)",
          "context_write", options="delete_options"),
    Entry("segment list", "segments: name, project, constraints, how many flags use each",
          "segment_read", options="list_options"),
    Entry("segment show", "one segment, and where it is used (flags and strategies per"
          " environment)", "segment_read", options="show_options"),
    Entry("segment create", "create a segment (constraints checked against the server first)",
          "segment_write", options="create_options"),
    Entry("segment edit",
          "change a segment's name, description, project or constraints; previews who gets"
          " each flag that uses it, before → after (in use: confirm, or --yes)",
          "segment_write", options="edit_options"),
    Entry("segment delete",
          "delete a segment no strategy uses (in use: refused before sending, naming the"
          " strategies; confirm, or --yes)", "segment_delete"),
    Entry("env list", "a project's environments", "env_list"),
    Entry("env remove", "remove an environment from a project", "env_remove"),
    Entry("env link", "link an environment to a project (its flags get it, switched off)",
          "env_link"),
    Entry("access grant", "give users and groups roles in a project", "access_grant"),
    Entry("role list", "the roles access grant takes, by id", "role_list"),
    Entry("group list", "the groups access grant takes, by id (Enterprise)", "group_list"),
    Entry("cr list", "a project's change requests", "cr_list"),
    Entry("cr show", "one change request", "cr_show"),
    Entry("cr delete", "delete a change request", "cr_delete"),
    Entry("api",
          "send any request to the profile's server, as gh api does: fields, --input, -H,"
          " --paginate over Unleash's pages, --include; secrets masked (a write unless GET or"
          " HEAD)", "api"),
)  # fmt: skip

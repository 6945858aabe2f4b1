"""Project environments (operation 3): which are linked to the project; remove one by name;
link one back (`l`: a picker of those not linked); `I` sets one's default strategy
(`default_strategy_key`)."""

from __future__ import annotations

from typing import ClassVar

from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding

from flagtui.api.models import ProjectEnvironment
from flagtui.tui.format import counted, yes_no
from flagtui.tui.rerunnable_reads import read
from flagtui.tui.screens.default_strategy_key import DefaultStrategyKey, default_text
from flagtui.tui.screens.project_area import ProjectAreaScreen
from flagtui.tui.widgets.choice_picker import ChoicePicker
from flagtui.tui.widgets.confirm import TypedConfirmModal
from flagtui.tui.widgets.focus import focus_now
from flagtui.tui.widgets.table import FilteredTable, ResourceTable

COLUMNS = [
    ("name", "Environment"),
    ("linked", "Linked"),
    ("type", "Type"),
    ("enabled", "Enabled"),
    ("protected", "Protected"),
    ("default", "Default strategy"),
]


def environment_row(env: ProjectEnvironment) -> tuple[str, tuple[str, ...]]:
    linked = "✓ linked" if env.visible else "—"
    cells = (env.name, linked, env.type or "", yes_no(env.enabled), yes_no(env.protected))
    return env.name, (*cells, default_text(env))


class EnvironmentsScreen(ProjectAreaScreen):
    AREA = "environments"
    WRITE_ACTIONS = frozenset({"remove", "link_environment", DefaultStrategyKey.ACTION})
    BINDINGS: ClassVar = [
        Binding("d,delete", "remove", "Remove", key_display="d", id="envs.remove",
                tooltip="Remove the environment from the project (type its name)"),
        Binding("l", "link_environment", "Link", id="envs.link",
                tooltip="Link an environment to the project (its flags get it, switched off)"),
        DefaultStrategyKey.binding(),
        Binding("r", "reload", "Reload", id="envs.reload", tooltip="Read the environments again"),
    ]  # fmt: skip

    STATUS_ID = "envs-status"
    table = getters.query_one(ResourceTable)

    def __init__(self) -> None:
        super().__init__()
        self.environments: list[ProjectEnvironment] = []
        self.default_key = DefaultStrategyKey(self, self.load)

    def compose_project_body(self) -> ComposeResult:
        yield FilteredTable(ResourceTable(COLUMNS, id="environments"))

    def on_mount(self) -> None:
        focus_now(self.table)
        self.load_projects()

    @work(exclusive=True, group="env-projects", exit_on_error=False)
    @read
    async def load_projects(self) -> None:
        await self.fill_projects()

    def project_changed(self) -> None:
        self.environments = []  # another project's: never offered for this one
        self.load()

    @work(exclusive=True, group="environments", exit_on_error=False)
    @read
    async def load(self) -> None:
        if self.project is None:
            return
        envs = await self.flagtui.client.environments.list(self.project)
        self.environments = envs
        self.table.set_rows([environment_row(e) for e in envs], envs)
        linked = sum(1 for e in envs if e.visible)
        self.status(f"{linked} of {counted(len(envs), 'environment')} linked to {self.project}")

    def action_reload(self) -> None:
        if not self.picker.project_ids:  # the first read failed (or found none): read them again
            self.load_projects()
        else:
            self.load()

    def action_remove(self) -> None:
        environment: ProjectEnvironment | None = self.table.selected_record
        project = self.project
        if environment is None or project is None:
            return
        name = environment.name
        if not environment.visible:
            self.notify(f"{name} is not linked to {project}.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes and not self.still_sending("env-remove"):
                self.remove_environment(project, name)

        body = (
            f"Flags of project {project} lose their {name} settings and strategies. "
            "This cannot be undone from flagtui."
        )
        title = f"Remove {name} from {project}?"
        self.app.push_screen(TypedConfirmModal(title, body, name, confirm_label="Remove"), answered)

    @work(exclusive=True, group="env-remove", exit_on_error=False)
    async def remove_environment(self, project: str, name: str) -> None:
        await self.flagtui.client.environments.remove(project, name)
        self.notify(f"{name} removed from {project}")
        self.load()

    def action_default_strategy(self) -> None:
        environment: ProjectEnvironment | None = self.table.selected_record
        if environment is None or self.project is None:
            return
        if not environment.visible:
            self.notify(f"{environment.name} is not linked to {self.project}.", severity="warning")
            return
        self.default_key.ask(self.project, environment)

    def action_link_environment(self) -> None:
        project = self.project
        if project is None:
            return
        unlinked = [e for e in self.environments if not e.visible]
        if not unlinked:
            self.flagtui.notify(
                f"Every environment is linked to {project}: nothing to link.", timeout=4
            )
            return

        def picked(index: int | None) -> None:
            if index is not None and not self.still_sending("env-link"):
                self.link_environment(project, unlinked[index].name)

        labels = [f"{e.name} ({e.type or '?'})" for e in unlinked]
        note = "The project's flags get the environment switched off, with no strategies."
        title = f"Link which environment to {project}?"
        self.app.push_screen(ChoicePicker(title, labels, note=note), picked)

    @work(exclusive=True, group="env-link", exit_on_error=False)
    async def link_environment(self, project: str, name: str) -> None:
        await self.flagtui.client.environments.link(project, name)
        self.flagtui.notify(f"{name} linked to {project}")
        self.load()

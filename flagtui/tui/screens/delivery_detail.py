"""One integration delivery in full: the event that triggered it and what the integration
reported. Secrets in it are masked (flagtui/masking.py); `m` reveals them for that delivery. `c`
puts the triggering change (fields before → after, who, when) at the top, above any long
webhook body; `o` opens the flag it names; `i` tries the integration's target from this machine
(`flagtui.probe`: DNS, TCP, TLS, a HEAD without the payload), shown above the delivery."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import getters, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from flagtui.api.models import IntegrationEvent
from flagtui.tui.details import delivery_text
from flagtui.tui.format import put
from flagtui.tui.screens.base import AreaScreen
from flagtui.tui.screens.jump_flag import open_flag_of_delivery
from flagtui.tui.widgets.text import PlainStatic


class DeliveryDetailScreen(AreaScreen):
    AREA = "integrations"
    scroller = getters.query_one("#detail", VerticalScroll)
    record = getters.query_one("#delivery", PlainStatic)
    probed = getters.query_one("#probe", PlainStatic)
    BINDINGS: ClassVar = [
        Binding("escape", "app.pop_screen", "Back", id="delivery.back", tooltip="Back to the list"),
        Binding("y", "copy", "Copy", id="delivery.copy", tooltip="Copy the delivery's id"),
        Binding("c", "cause", "Cause", id="delivery.cause",
                tooltip="The triggering change at the top: fields before → after, who, when"),
        Binding("o", "open_flag", "Open flag", id="delivery.flag",
                tooltip="The detail of the flag the triggering event names"),
        Binding("i", "probe", "Probe", id="delivery.probe",
                tooltip="Try the integration's target from here: DNS, TCP, TLS, HTTP (no payload)"),
        Binding("m", "reveal", "Reveal URLs", id="delivery.reveal",
                tooltip="Show this delivery's secrets in full, or masked again"),
    ]  # fmt: skip

    def __init__(self, delivery: IntegrationEvent, integration: str) -> None:
        super().__init__()
        self.delivery = delivery
        self.integration = integration
        self.revealed = False  # for this delivery, while it is on screen
        self.cause_first = False

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="detail"):
            probe = PlainStatic("", id="probe")
            probe.display = False  # until `i` asks for it
            yield probe
            yield PlainStatic(self._text(), id="delivery")

    def _text(self) -> Text:
        return delivery_text(
            self.delivery, self.integration, reveal=self.revealed, cause=self.cause_first
        )

    def on_mount(self) -> None:
        self.scroller.focus()

    def redraw_times(self) -> None:
        self.record.update(self._text())

    def action_reveal(self) -> None:
        self.revealed = not self.revealed
        self.record.update(self._text())

    def action_cause(self) -> None:
        self.cause_first = not self.cause_first
        self.record.update(self._text())
        self.scroller.scroll_home(animate=False)

    def action_open_flag(self) -> None:
        open_flag_of_delivery(self, self.delivery)

    def action_probe(self) -> None:
        self.probed.display = True
        self.probed.update("probing the integration's target from this machine…")
        self.run_probe()

    @work(exclusive=True, group="probe", exit_on_error=False)
    async def run_probe(self) -> None:
        """The probe's steps above the delivery (its URL masked); a failure to find the target
        said there too. The network is tried from here, not from Unleash's server."""
        from flagtui.probe import NoTarget, integration_target, probe, report

        delivery = self.delivery
        try:
            label, url, source = await integration_target(
                self.flagtui.client, delivery.integration_id, delivery.details
            )
        except NoTarget as exc:
            self.probed.update(f"probe: {exc}")
            return
        except Exception:
            self.probed.update("probe: the integration could not be read from the server")
            raise  # said by the screen's one error handler
        self.probed.update(probe_text(report(label, url, source, await probe(url))))

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.delivery.id)
        self.notify(f"Copied delivery id {self.delivery.id}", timeout=3)


def probe_text(shown: dict[str, Any]) -> Text:
    """A probe's report as the detail shows it: the target, one line a step, where from."""
    out = Text()
    put(out, f"Probe of {shown['integration']} at {shown['target']} ({shown['targetFrom']})\n")
    for step in shown["steps"]:
        ms = "" if step["ms"] is None else f"{step['ms']} ms"
        style = "bold" if step["result"] == "FAILED" else ""
        put(out, f"  {step['step']:<5} {step['result']:<7} {ms:>9}  ", style)
        put(out, f"{step['detail']}\n")
    put(out, shown["seenFrom"][0].upper() + shown["seenFrom"][1:] + ".\n")
    return out

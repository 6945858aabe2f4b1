"""docs/keys.md, made from the bindings themselves: every screen's keys, their binding ids (what
the config's `[keymap]` names) and what each does. `python -m flagtui.tui.key_reference` prints
it; a test fails when the file is out of date."""

from __future__ import annotations

from flagtui.tui.keymap import binding_classes, own_bindings

HEADER = """# Keys

Made by `python -m flagtui.tui.key_reference > docs/keys.md` from the bindings themselves; do
not edit by hand. `?` in the app lists the keys of the screen you are on. Any key can be moved
in the config's `[keymap]` table, binding id = keys (Textual's key names, several separated by
commas); a keymap that would leave an action out of reach is refused at start (exit 2):

```toml
[keymap]
"features.reload" = "f5"
"app.profile" = "ctrl+o"
```
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    lines = [HEADER.rstrip("\n")]
    for cls in sorted(binding_classes(), key=lambda c: c.__name__):
        bindings = [b for b in own_bindings(cls) if b.id]
        if not bindings:
            continue
        lines += [f"\n## {cls.__name__}\n", "| key | binding id | action |", "|---|---|---|"]
        for binding in bindings:
            keys = " / ".join(f"`{key.strip()}`" for key in binding.key.split(","))
            said = binding.tooltip or binding.description
            lines.append(f"| {keys} | `{binding.id}` | {_cell(said)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")

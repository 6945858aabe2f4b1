"""The output formats every scriptable command takes (`-o`): named apart from `output.py`,
which prints them, so that building the command line imports no json or csv (issue 26)."""

FORMATS = ("table", "json", "jsonl", "csv")

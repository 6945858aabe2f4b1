"""`Value`: equality, hash and repr from an object's attributes, as a dataclass has them, for
the records a command's start makes (a profile, the failures of an archive's answer).

Not dataclasses: `dataclasses` imports `inspect`, and with the classes it makes it cost
`flagtui failures` about 17 ms of a start that reads a few rows (issue 26). A subclass sets
its fields in `__init__`, in the order its repr lists them, and never assigns them after.
"""

from __future__ import annotations


class Value:
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash(tuple(vars(self).values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"{self.__class__.__qualname__}({fields})"

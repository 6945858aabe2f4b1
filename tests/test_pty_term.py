"""testkit's pseudo-terminal (`testkit/pty_term.py`): a program that writes more than the
terminal holds as it leaves still ends while a test waits for it, its output read meanwhile."""

from __future__ import annotations

import os
import sys

from testkit.pty_term import Term

# More than a pseudo-terminal buffers: unread, the write blocks and the program never ends.
WRITES_AS_IT_LEAVES = "import sys; sys.stdout.write('x' * 1_000_000); sys.stdout.flush()"


def test_a_program_writing_as_it_leaves_ends_while_the_test_waits() -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    with Term([sys.executable, "-c", WRITES_AS_IT_LEAVES], env, 80, 24) as term:
        assert term.wait_exit(60) == 0
        assert term.bytes_read >= 1_000_000

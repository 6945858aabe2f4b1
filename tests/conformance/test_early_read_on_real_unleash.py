"""A cold start's early read against a real Unleash OSS: the child's search, sent with the
standard library (`flagtui/api/early_search.py`), is answered as the client's is, and the rows
it saves are the default project's flags, as many as the first page holds. One search only:
real Unleash allows 15 a minute, and the suite's other tests spend them too."""

from __future__ import annotations

from pathlib import Path

import pytest
from early_reads import early_read, remembering
from hostile_pty import flagtui_env

from flagtui.tui.feature_rows import PAGE_SIZE
from flagtui.tui.row_cache import RowCache
from flagtui.tui.screens.features_layout import COLUMNS
from flagtui.tui.start_plan import EARLY_AREA

pytestmark = pytest.mark.unleash


async def test_the_early_read_saves_the_default_projects_first_page(
    real_unleash, real_client, tmp_path: Path
) -> None:
    remembering(tmp_path, "default")
    assert early_read(flagtui_env(tmp_path, real_unleash.token, real_unleash.url)) is True
    rows = tmp_path / "cache" / "flagtui" / "rows"
    cached = RowCache(rows, "env", real_unleash.url.rstrip("/")).load(
        EARLY_AREA, len(COLUMNS), "default"
    )
    assert cached is not None
    names = [key for key, _ in cached.rows]
    live = sorted(f.name for f in await real_client.features.list("default"))
    assert len(names) == min(PAGE_SIZE, len(live)) and set(names) <= set(live)
    written = "".join(p.read_text() for p in rows.iterdir())
    assert real_unleash.token not in written

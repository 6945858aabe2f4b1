"""The floor under `flagtui feature list --project default -o json`: the same two requests
(ui-config, then the project's first search page), one after the other, with the libraries
flagtui's client is made of (asyncio, httpx, pydantic) and nothing of flagtui: Python's start,
their imports, one model validated, the JSON printed. bench/figures/commands.py times it beside
the command (`cmd_feature_list_floor_s`), so the part of the command's time that is flagtui's
own is the difference.

    python bench/floor_feature_list.py URL TOKEN
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

# httpx imports its own command line (click, rich, pygments) whenever they are installed, as
# they are beside Textual and uvicorn: about 80 ms no client uses. flagtui blocks it the same
# way (flagtui/__init__.py), so a floor without this line would sit that much too high.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

import httpx  # noqa: E402
import pydantic  # noqa: E402


class Page(pydantic.BaseModel):
    features: list[dict[str, Any]]


async def main(url: str, token: str) -> None:
    headers = {"Authorization": token}
    # verify=False: plain HTTP never reaches TLS, and flagtui's client skips the CA bundle too.
    async with httpx.AsyncClient(base_url=url, headers=headers, verify=False) as client:
        (await client.get("/api/admin/ui-config")).raise_for_status()
        params = {"sortBy": "name", "sortOrder": "asc", "offset": 0, "limit": 100}
        answer = await client.get(
            "/api/admin/search/features", params=params | {"project": "IS:default"}
        )
        page = Page.model_validate_json(answer.content)
    print(json.dumps(page.features, indent=2))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

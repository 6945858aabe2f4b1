import sys

__version__ = "0.1.0"

# httpx imports its command-line client whenever click is installed (uvicorn brings it for the
# sandbox), and with it click, pygments and rich.syntax: 20-40 ms of every start. flagtui never
# runs it; None in sys.modules makes that import fail, which httpx expects and handles. Set here,
# before any module of flagtui can import httpx.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

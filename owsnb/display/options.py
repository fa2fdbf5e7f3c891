"""Display options, used as a context manager or globally (like ``xarray.set_options``).

>>> with set_options(display_style="text"):
...     OPTIONS["display_style"]
'text'
>>> OPTIONS["display_style"]
'html'
"""

from __future__ import annotations

from typing import Any

__all__ = ["OPTIONS", "set_options"]

OPTIONS: dict[str, Any] = {"display_style": "html", "max_rows": 40, "units": "km"}
_VALID = {"display_style": ("html", "text"), "units": ("km", "nm")}


class set_options:  # noqa: N801  (reads like a function, as in xarray)
    """Set display options: ``display_style`` ("html"/"text"), ``max_rows``, ``units`` ("km"/"nm")."""

    def __init__(self, **kwargs: Any):
        self._old = {}
        for k, v in kwargs.items():
            if k not in OPTIONS:
                raise ValueError(f"unknown display option {k!r}; known: {', '.join(OPTIONS)}")
            if k in _VALID and v not in _VALID[k]:
                raise ValueError(f"display option {k!r} must be one of {_VALID[k]}, not {v!r}")
            self._old[k] = OPTIONS[k]
            OPTIONS[k] = v

    def __enter__(self) -> set_options:
        return self

    def __exit__(self, *exc: Any) -> None:
        OPTIONS.update(self._old)

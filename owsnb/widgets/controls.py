"""Buttons and check boxes as the table's panels make them: a button that calls an action, a
check box that sits inline with its label.

Example:
    >>> clicked = []
    >>> b = button("Done", lambda: clicked.append(1), icon="forward", style="success")
    >>> b.click(); clicked, b.button_style
    ([1], 'success')
    >>> checkbox("public").layout.width
    'auto'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

__all__ = ["button", "checkbox"]


def button(
    description: str,
    action: Callable[[], Any],
    *,
    icon: str = "",
    tooltip: str | None = None,
    style: str = "",
    width: str | None = None,
    height: str | None = None,
) -> W.Button:
    """A button calling *action()* when clicked (*style*: ``"primary"``, ``"success"``...)."""
    size = {k: v for k, v in (("width", width), ("height", height)) if v is not None}
    b = W.Button(
        description=description,
        icon=icon,
        tooltip=tooltip,
        button_style=style,
        layout=W.Layout(**size),  # made with its size: no update sent after it opens
    )
    b.on_click(lambda _: action())
    return b


def checkbox(description: str, value: bool = False, **kwargs: Any) -> W.Checkbox:
    """A check box with its label inline (no indent, as wide as its label)."""
    return W.Checkbox(
        value=value, description=description, indent=False, layout=W.Layout(width="auto"), **kwargs
    )

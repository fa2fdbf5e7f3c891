"""The map's default palette: terrain styles for a rule set that names none of its own.

>>> terrain_style(None, "forest")["fillColor"]
'#74c476'
>>> terrain_style(None, "no-such-terrain")["fillColor"]
'#d9d9d9'
"""

from __future__ import annotations

from typing import Any

__all__ = ["TERRAIN_STYLES", "UNKNOWN", "terrain_style"]

TERRAIN_STYLES: dict[str, dict[str, Any]] = {
    "sea": {"fillColor": "#9ecae1", "fillOpacity": 0.55},
    "deep-sea": {"fillColor": "#6baed6", "fillOpacity": 0.55},
    "littoral": {"fillColor": "#c6dbef", "fillOpacity": 0.55},
    "lake": {"fillColor": "#9ecae1", "fillOpacity": 0.55},
    "clear": {"fillColor": "#f7f4e3", "fillOpacity": 0.45},
    "land": {"fillColor": "#f0ead2", "fillOpacity": 0.45},
    "forest": {"fillColor": "#74c476", "fillOpacity": 0.5},
    "woods": {"fillColor": "#74c476", "fillOpacity": 0.5},
    "hills": {"fillColor": "#d9b779", "fillOpacity": 0.5},
    "rough": {"fillColor": "#c9a86a", "fillOpacity": 0.5},
    "mountain": {"fillColor": "#a67c52", "fillOpacity": 0.55},
    "urban": {"fillColor": "#969696", "fillOpacity": 0.55},
    "swamp": {"fillColor": "#8fbc8f", "fillOpacity": 0.5},
    "marsh": {"fillColor": "#8fbc8f", "fillOpacity": 0.5},
    "desert": {"fillColor": "#f3e0a8", "fillOpacity": 0.5},
    "polder": {"fillColor": "#cfe8b5", "fillOpacity": 0.5},
}
"""Default terrain styles (Leaflet path styles) by terrain key."""

UNKNOWN: dict[str, Any] = {"fillColor": "#d9d9d9", "fillOpacity": 0.5}
"""The style of a terrain nobody names."""


def terrain_style(presentation: Any, terrain: str) -> dict[str, Any]:
    """The style a map draws *terrain* in: the rule set's presentation's, else the default."""
    own = presentation.terrain_style(terrain) if presentation is not None else {}
    return dict(own) if own else dict(TERRAIN_STYLES.get(terrain, UNKNOWN))

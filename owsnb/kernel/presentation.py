"""What the table draws of a rule set: its presentation object — plain data, no widget, no SVG,
no palette of its own (the drawing and the defaults live in :mod:`owsnb.display`).

A rule set holds one :class:`Presentation` (``ruleset.presentation``; ``None`` gives these
defaults) and the widgets ask it, never the rules, for what they draw:

| method | returns | drawn as |
| --- | --- | --- |
| ``terrain_style(terrain)`` | Leaflet path style (``fillColor``, ``fillOpacity``) | the grid |
| ``counter(unit, view)`` | a :class:`Counter` (symbol, designation, factors, dice, steps...) | counters, trays |
| ``unit_summary(unit, view)`` | ``(label, value)`` rows | tooltips, the unit card |
| ``reach(view, unit_id)`` | ``{Hex: cost}`` or ``None`` | reach overlay, time and distance |
| ``ranges(view, unit_id)`` | dicts ``label``, ``kind``, ``hexes``, optional ``colour`` | range rings |
| ``transit(view, unit_id, to)`` | rows ``mode``, ``turns``, ``days``... | time and distance |
| ``hex_overlay(view)`` | ``{Hex: style, optional "label"}`` (only what *view* may know) | the rule set's hex layer |
| ``dashboard(view)`` | nested numbers, text, tracks, tables | the dashboard |
| ``unit_domain(view, unit)`` | ``"air"``, ``"maritime"``, ``"land"``... or ``None`` | forces and losses by domain |
| ``prompt(view, side)`` | ``(text, rule)`` lines: what *side* must answer now | above the orders |

Counters are drawn by :mod:`owsnb.display.symbols`, every rule set's from one table. Every
method sees only what it is given: a *view* is what one seat knows.

>>> from owsnb.kernel.state import Unit
>>> p = Presentation()
>>> p.terrain_style("forest")  # the rule set says nothing: the map's default palette
{}
>>> c = p.counter(Unit("B-INF-1", "blue", "infantry", steps=1, max_steps=2), None)
>>> c.symbol, c.designation, c.steps, c.max_steps
('infantry', 'INF-1', 1, 2)
>>> p.unit_domain(None, Unit("F-16", "blue", "fighter", data={"domain": "air"}))
'air'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Presentation",
    "Counter",
    "Die",
    "Shield",
    "DEFAULT",
    "presentation_of",
    "short_designation",
]


@dataclass(frozen=True)
class Die:
    """An attack die printed on a counter (OWS 2.1: the die's colour, its name, spent or not)."""

    die: str
    """The die, e.g. ``"d10"`` (its number is printed on it)."""
    fill: str
    """Its colour."""
    ink: str = "#111111"
    """The colour of its number."""
    spent: bool = False
    """No salvo left: drawn faded."""


@dataclass(frozen=True)
class Shield:
    """A shield printed on a counter (OWS 2.2.2.8: red enduring, grey consumable)."""

    value: str
    fill: str
    spent: bool = False


@dataclass(frozen=True)
class Counter:
    """What a counter shows, as data: :func:`owsnb.display.symbols.counter_svg` draws it, the
    same way for every rule set.

    Text fields are short by contract: ``designation`` a few characters (shown whole, never cut
    mid-word; the full name is in ``title``), ``factors``, ``left`` and ``right`` a number or
    two. Anything longer belongs in :meth:`Presentation.unit_summary`.
    """

    side: str
    fill: str
    """Background: the side's colour (light enough for black text)."""
    designation: str
    """Short name printed on top (e.g. ``"DDG-1801"``)."""
    symbol: str = ""
    """Key of :data:`owsnb.display.symbols.SYMBOLS` (APP-6 frame and function glyph)."""
    echelon: str = ""
    """Key of :data:`owsnb.display.symbols.ECHELONS` (``"battalion"``, ``"brigade"``...)."""
    factors: str = ""
    """Printed factors under the symbol (e.g. ``"4-4-6"``)."""
    left: str = ""
    """A value left of the symbol (e.g. an attack factor)."""
    right: str = ""
    """A value right of the symbol (e.g. a defence factor, a signature)."""
    dice: tuple[Die, ...] = ()
    shields: tuple[Shield, ...] = ()
    steps: int = 0
    max_steps: int = 0
    marks: tuple[str, ...] = ()
    """State dots, keys of :data:`owsnb.display.symbols.MARKS` (``"moved"``, ``"fired"``...)."""
    border: str = ""
    """A state colour drawn as a thick border (e.g. TOCS Fatigued and worse)."""
    facing: float | None = None
    """Facing in degrees (counter-clockwise from east), drawn as an arrow."""
    dashed: bool = False
    """Not yet on the map (staged, planned): a dashed outline."""
    damaged: bool = False
    """Its damaged side: hatched."""
    crossed: bool = False
    """Destroyed or eliminated: crossed out."""
    face_down: bool = False
    """Only its back is known: drawn as a question mark in the side's colour."""
    title: str = ""
    """One line for a tooltip (the full name)."""


_SIDE_PREFIX = re.compile(r"^[A-Z]{1,2}-(?=\S)")


def short_designation(unit: Any) -> str:
    """A unit's short designation: its id without a side prefix (``"B-DDG-1801"`` ->
    ``"DDG-1801"``), the id itself otherwise.

    >>> from owsnb.kernel.state import Unit
    >>> short_designation(Unit("R-052D-1", "red")), short_designation(Unit("1/5", "blue"))
    ('052D-1', '1/5')
    """
    rest = _SIDE_PREFIX.sub("", unit.id)
    return rest or unit.id


def _fill(view: Any, side: str) -> str:
    s = view.sides.get(side) if view is not None and hasattr(view, "sides") else None
    return str(getattr(s, "color", None) or "#9ca3af")


class Presentation:
    """The presentation hooks of a rule set, with defaults (see the module docstring).

    A rule set sets an instance as its ``presentation``, built from its own functions: each
    keyword names the method it stands for and takes that method's arguments in that order (a
    rule set may also subclass it; every method is optional to override). *terrain_styles* is
    the palette :meth:`terrain_style` reads when no ``terrain_style`` function is given.

    >>> p = Presentation(ranges=lambda view, unit_id: [{"label": unit_id}])
    >>> p.ranges(None, "B-1"), p.reach(None, "B-1")
    ([{'label': 'B-1'}], None)
    >>> Presentation(rnages=len)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: a presentation has no hook 'rnages' (it has counter, dashboard, ..., unit_summary)
    """

    terrain_styles: Mapping[str, Mapping[str, Any]] = {}
    """The rule set's terrain palette, read by :meth:`terrain_style` (none here: the map's own
    default palette, :data:`owsnb.display.palette.TERRAIN_STYLES`, fills in)."""

    def __init__(
        self,
        *,
        terrain_styles: Mapping[str, Mapping[str, Any]] | None = None,
        **hooks: Callable[..., Any],
    ) -> None:
        if terrain_styles is not None:
            self.terrain_styles = terrain_styles
        for name, fn in hooks.items():
            if name not in _HOOKS:
                known = ", ".join(sorted(_HOOKS))
                raise TypeError(f"a presentation has no hook {name!r} (it has {known})")
            setattr(self, name, fn)  # the function stands in for the method on this instance

    def terrain_style(self, terrain: str) -> dict[str, Any]:
        """Fill colour and opacity for a terrain key (Leaflet path style); ``{}`` when the rule
        set does not say (the map draws its default)."""
        return dict(self.terrain_styles.get(terrain, {}))

    def counter(self, unit: Any, view: Any) -> Counter:
        """The unit's counter as data (default: side colour, its kind as the symbol when the
        symbol table knows it, short designation, step boxes)."""
        return Counter(
            side=unit.side,
            fill=_fill(view, unit.side),
            designation=short_designation(unit),
            symbol=str(unit.kind or ""),
            steps=int(unit.steps),
            max_steps=int(unit.max_steps),
            marks=tuple(sorted(unit.markers)),
            title=unit.name or unit.id,
        )

    def unit_summary(self, unit: Any, view: Any) -> list[tuple[str, str]]:
        """(label, value) rows for a unit's tooltip or card."""
        rows = [("type", str(unit.kind)), ("steps", f"{unit.steps}/{unit.max_steps}")]
        if unit.markers:
            rows.append(("markers", ", ".join(sorted(unit.markers))))
        return rows

    def reach(self, view: Any, unit_id: str) -> Mapping[Any, float] | None:
        """Hexes *unit_id* can reach this turn (hex -> cost), as its side knows; ``None`` if the
        rule set does not say."""
        return None

    def ranges(self, view: Any, unit_id: str) -> list[dict[str, Any]]:
        """Range rings of a unit: dicts with ``label``, ``kind`` (weapon, sensor, radius,
        command...), ``hexes`` (radius in hexes) and optional ``colour``."""
        return []

    def transit(self, view: Any, unit_id: str, to: Any) -> list[dict[str, Any]]:
        """Time and distance from *unit_id* to hex *to* by every mode it can use: one dict per
        mode (``mode``, ``turns``, ``days``, ``hexes``, ``km``, ``nm``, ``note``); ``[]`` if the
        rule set does not say."""
        return []

    def hex_overlay(self, view: Any) -> dict[Any, dict[str, Any]]:
        """Per-hex styles of a rule-set layer the map draws over the terrain (e.g. each hex's
        owner in TOCS): hex -> Leaflet path style, optionally with a ``"label"``. Only what
        *view* may know."""
        return {}

    def dashboard(self, view: Any) -> dict[str, Any]:
        """Values the dashboard draws for *view* (rule-set specific tracks, forces, munitions)."""
        return {}

    def prompt(self, view: Any, side: str) -> list[tuple[str, str]]:
        """What *side* must answer now, as far as *view* lets it know: ``(text, rule)`` lines
        (a strike coming in, its target and salvos; an attack and its attackers). Shown above
        the orders while *side* acts. Default: nothing."""
        return []

    def unit_domain(self, view: Any, unit: Any) -> str | None:
        """The domain (air, maritime, land...) *unit* counts under in forces and losses by
        domain, or ``None`` (counted under its side only). Default: the payload's ``domain``
        text, if any. *view* is what the seat knows: a face-down counter should give ``None``."""
        dom = unit.data.get("domain") if unit.data else None
        return dom if isinstance(dom, str) and dom else None


_HOOKS = frozenset(
    name for name, v in vars(Presentation).items() if callable(v) and not name.startswith("_")
)
"""The names a presentation's hook functions may take: its public methods."""

DEFAULT = Presentation()
"""The defaults, for a rule set without a presentation of its own."""


def presentation_of(ruleset: Any) -> Presentation:
    """The presentation object of *ruleset* (the defaults when it has none).

    >>> from owsnb.kernel.ruleset import RuleSet
    >>> presentation_of(RuleSet()) is DEFAULT
    True
    """
    p = getattr(ruleset, "presentation", None)
    return p if p is not None else DEFAULT

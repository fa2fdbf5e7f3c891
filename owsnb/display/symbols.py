"""Counters drawn from one table of symbols, the same way for every rule set.

A rule set's presentation describes a counter as data (:class:`owsnb.kernel.presentation.Counter`:
a symbol key, a short designation, factors, OWS dice and shields, steps, state); this module draws
it as SVG: an APP-6 frame for the symbol's domain and the viewer's affiliation (friend: rectangle,
dome, circle; hostile: diamond, pointed arch), the function glyph, echelon marks, the values,
OWS die colours and shields, step boxes and state marks.

Every counter is drawn in a 100 x 100 box and shown at any size (the map scales it with the
zoom); no text on it is smaller than :data:`TEXT_MIN` units, so at :data:`MIN_PX` pixels on
screen every text is at least 9 px. A designation is never cut: a long one is narrowed.

>>> from owsnb.kernel.presentation import Counter, Die, Shield
>>> c = Counter("blue", "#9cc3e6", "DDG-1801", symbol="surface-combatant",
...             dice=(Die("d12", "#1565c0", "#fff"),), shields=(Shield("5", "#c62828"),),
...             steps=1, max_steps=2)
>>> svg = counter_svg(c, viewer="blue")
>>> svg.startswith("<svg") and "DDG-1801" in svg and ">12</text>" in svg
True
>>> min_text(svg) >= TEXT_MIN
True
>>> sorted({g for _, gs in SYMBOLS.values() for g in gs} - set(GLYPHS))  # all drawn
[]
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

__all__ = [
    "SYMBOLS",
    "GLYPHS",
    "FRAMES",
    "ECHELONS",
    "MARKS",
    "TEXT_MIN",
    "MIN_PX",
    "counter_svg",
    "affiliation",
    "unit_svg",
    "min_text",
]

TEXT_MIN = 20
"""The smallest font size on a counter, in units of its 100-unit box."""

MIN_PX = 46
"""The smallest on-screen size of a counter (px): every text on it is then >= 9 px."""

# -- the table -------------------------------------------------------------------------------------
# Glyphs are drawn in the frame box x 27..73, y 29..59 (a land frame); other frames scale them.
_S = "fill='none' stroke='#111' stroke-width='2.2'"
GLYPHS: dict[str, str] = {
    "cross": f"<path d='M27 29L73 59M73 29L27 59' {_S}/>",
    "oval": f"<ellipse cx='50' cy='44' rx='15' ry='8' {_S}/>",
    "slash": f"<path d='M27 59L73 29' {_S}/>",
    "dot": "<circle cx='50' cy='44' r='5.5' fill='#111'/>",
    "motor": f"<path d='M50 29V59' {_S}/>",
    "rocket": f"<path d='M44 37L50 31L56 37M50 31V39' {_S}/>",
    "missile": f"<path d='M50 56V33M44 39L50 32L56 39M45 56H55' {_S}/>",
    "air-defence": f"<path d='M29 59Q50 31 71 59' {_S}/>",
    "anti-tank": f"<path d='M27 59L50 29L73 59' {_S}/>",
    "engineer": f"<path d='M38 50V38H62V50M50 38V50' {_S}/>",
    "headquarters": "<text x='50' y='51' font-size='20' font-weight='bold' text-anchor='middle'>HQ</text>",
    "staff": f"<path d='M27 59V66' {_S}/>",
    "supply": f"<path d='M27 53H73' {_S}/>",
    "wheels": f"<circle cx='39' cy='51' r='3.5' {_S}/><circle cx='61' cy='51' r='3.5' {_S}/>"
    f"<path d='M33 44H67' {_S}/>",
    "special-forces": "<text x='50' y='51' font-size='20' font-weight='bold' "
    "text-anchor='middle'>SF</text>",
    "para": f"<path d='M40 55Q45 49 50 55Q55 49 60 55' {_S}/>",
    "wave": f"<path d='M36 55Q40 51 44 55T52 55T60 55T68 55' {_S}/>",
    "mountain": "<path d='M42 58L50 50L58 58Z' fill='#111'/>",
    "fixed-wing": "<path d='M50 32L53 42L68 47V50L53 48L52 55L57 58V60L50 58.5L43 60V58L48 55L47 48"
    "L32 50V47L47 42Z' fill='#111'/>",
    "fighter": "<text x='50' y='51' font-size='20' font-weight='bold' text-anchor='middle'>F</text>",
    "attack": "<text x='50' y='51' font-size='20' font-weight='bold' text-anchor='middle'>A</text>",
    "rotary": f"<path d='M34 38L66 50M34 50L66 38' {_S}/><circle cx='50' cy='44' r='3' fill='#111'/>",
    "surface-combatant": "<path d='M33 46H67L62 53H38Z' fill='#111'/><path d='M47 46V38H53V46' "
    "fill='#111'/>",
    "patrol": "<text x='50' y='51' font-size='20' font-weight='bold' text-anchor='middle'>PB</text>",
    "amphibious-ship": "<path d='M33 46H67L62 53H38Z' fill='#111'/><path d='M38 42Q42 38 46 42T54 42"
    f"T62 42' {_S}/>",
    "submarine": "<path d='M32 46Q32 41 40 41H60Q68 41 68 46Q68 51 60 51H40Q32 51 32 46Z' fill='#111'/>"
    "<path d='M46 41V36H52V41' fill='#111'/>",
    "anchor": f"<path d='M50 33V57M43 38H57M38 49Q40 57 50 57Q60 57 62 49' {_S}/>",
    "airfield": f"<path d='M35 55L65 33M35 33L65 55' {_S}/>",
    "fortification": f"<path d='M32 56L50 32L68 56Z' {_S}/>",
    "obstacle": f"<path d='M29 50L36 38L43 50L50 38L57 50L64 38L71 50' {_S}/>",
    "flag": f"<path d='M38 58V32' {_S}/><path d='M38 32H62V44H38Z' fill='#111'/>",
    "question": "<text x='50' y='53' font-size='26' font-weight='bold' text-anchor='middle'>?</text>",
    "dummy": "<text x='50' y='53' font-size='26' font-weight='bold' text-anchor='middle'>D</text>",
}
"""Function glyphs (APP-6 style) as SVG in the land frame's box."""

SYMBOLS: dict[str, tuple[str, tuple[str, ...]]] = {
    # land units
    "infantry": ("land", ("cross",)),
    "mechanised-infantry": ("land", ("cross", "oval")),
    "motorised-infantry": ("land", ("cross", "motor")),
    "airborne-infantry": ("land", ("cross", "para")),
    "mountain-infantry": ("land", ("cross", "mountain")),
    "amphibious": ("land", ("cross", "wave")),
    "marines": ("land", ("cross", "wave")),
    "armour": ("land", ("oval",)),
    "reconnaissance": ("land", ("slash",)),
    "armoured-reconnaissance": ("land", ("slash", "oval")),
    "artillery": ("land", ("dot",)),
    "self-propelled-artillery": ("land", ("dot", "oval")),
    "motorised-artillery": ("land", ("dot", "motor")),
    "rocket-artillery": ("land", ("dot", "rocket")),
    "missile": ("land", ("missile",)),
    "air-defence": ("land", ("air-defence",)),
    "anti-tank": ("land", ("anti-tank",)),
    "engineer": ("land", ("engineer",)),
    "motorised-engineer": ("land", ("engineer", "motor")),
    "headquarters": ("land", ("headquarters", "staff")),
    "motorised-headquarters": ("land", ("headquarters", "motor", "staff")),
    "command-post": ("land", ("flag",)),
    "supply": ("land", ("supply",)),
    "transport": ("land", ("wheels",)),
    "special-forces": ("land", ("special-forces",)),
    "fortification": ("land", ("fortification",)),
    "obstacle": ("land", ("obstacle",)),
    "dummy": ("land", ("dummy",)),
    "unit": ("land", ()),
    # air
    "fighter": ("air", ("fixed-wing", "fighter")),
    "strike-aircraft": ("air", ("fixed-wing", "attack")),
    "aircraft": ("air", ("fixed-wing",)),
    "helicopter": ("air", ("rotary",)),
    # sea
    "surface-combatant": ("sea", ("surface-combatant",)),
    "patrol-boat": ("sea", ("patrol",)),
    "amphibious-ship": ("sea", ("amphibious-ship",)),
    "submarine": ("subsurface", ("submarine",)),
    # installations
    "air-base": ("installation", ("airfield",)),
    "port": ("installation", ("anchor",)),
}
"""Symbol key -> (domain, glyphs): the one table every rule set's counters are drawn from."""

# Frames by (domain, affiliation), APP-6: friend rectangle / dome / circle / U, hostile diamond /
# pointed arch / diamond / V. Installations are land frames with a bar on top.
_F = "fill='#fff' stroke='#111' stroke-width='2.4'"
_DIAMOND = f"<path d='M50 27L74 44L50 61L26 44Z' {_F}/>"
FRAMES: dict[tuple[str, str], str] = {
    ("land", "friend"): f"<rect x='27' y='29' width='46' height='30' {_F}/>",
    ("land", "hostile"): _DIAMOND,
    ("installation", "friend"): f"<rect x='27' y='29' width='46' height='30' {_F}/>"
    "<rect x='40' y='25' width='20' height='4.5' fill='#111'/>",
    ("installation", "hostile"): _DIAMOND
    + "<rect x='42' y='23' width='16' height='4' fill='#111'/>",
    ("air", "friend"): f"<path d='M27 60V46Q27 27 50 27Q73 27 73 46V60' {_F}/>",
    ("air", "hostile"): f"<path d='M27 60V44L50 26L73 44V60' {_F}/>",
    ("sea", "friend"): f"<circle cx='50' cy='44' r='17' {_F}/>",
    ("sea", "hostile"): _DIAMOND,
    ("subsurface", "friend"): f"<path d='M27 30V42Q27 62 50 62Q73 62 73 42V30' {_F}/>",
    ("subsurface", "hostile"): f"<path d='M27 30V42L50 62L73 42V30' {_F}/>",
}
"""APP-6 frames by (domain, affiliation)."""

_SHRINK = {"hostile": 0.62, "sea": 0.7, "subsurface": 0.8, "air": 0.8}

ECHELONS: dict[str, int | str] = {
    "team": 0,
    "squad": 1,
    "section": 2,
    "platoon": 3,
    "company": "I",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division": "XX",
    "corps": "XXX",
    "army": "XXXX",
}
"""Echelon marks above the frame: dots (team to platoon), bars (company to regiment) or crosses
(brigade and up), drawn as lines, never as text."""

MARKS: dict[str, str] = {
    "moved": "#facc15",
    "fired": "#f97316",
    "attacked": "#f97316",
    "engaged": "#f97316",
    "sortie": "#38bdf8",
    "set-up": "#a3e635",
    "defend": "#16a34a",
    "disrupted": "#dc2626",
    "suppressed": "#dc2626",
    "hit": "#dc2626",
    "out-of-supply": "#facc15",
}
"""Colours of the state dots a counter may carry (others are grey)."""


# -- drawing ---------------------------------------------------------------------------------------
def affiliation(unit_side: str, viewer: str | None, sides: Any = ()) -> str:
    """APP-6 affiliation of a counter for a viewer: ``"friend"`` for the viewer's own units,
    ``"hostile"`` for the others'; the umpire (or anyone else) sees the first side as friend.

    >>> affiliation("blue", "red"), affiliation("red", "red"), affiliation("blue", "umpire", ["blue", "red"])
    ('hostile', 'friend', 'friend')
    """
    order = list(sides)
    if viewer in order or not order:
        return "friend" if unit_side == viewer else "hostile"
    return "friend" if unit_side == order[0] else "hostile"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on *fill* (a #rrggbb colour)."""
    m = re.fullmatch(r"#?([0-9a-fA-F]{6})", fill.strip())
    if not m:
        return "#111"
    r, g, b = (int(m.group(1)[i : i + 2], 16) / 255 for i in (0, 2, 4))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#111" if lum > 0.45 else "#fff"


def _text(x: float, y: float, s: str, size: float, fill: str, width: float, bold: bool) -> str:
    """A line of text of at most *width* units: narrowed (never cut, never smaller) when longer."""
    est = len(s) * size * (0.62 if bold else 0.56)
    fit = f" textLength='{width:g}' lengthAdjust='spacingAndGlyphs'" if est > width else ""
    weight = " font-weight='bold'" if bold else ""
    return (
        f"<text x='{x:g}' y='{y:g}' font-size='{size:g}'{weight} text-anchor='middle' "
        f"fill='{fill}'{fit}>{_e(s)}</text>"
    )


def _echelon(key: str) -> str:
    mark = ECHELONS.get(key)
    if mark is None:
        return ""
    y0, y1 = 21.5, 27.5
    if isinstance(mark, int):
        n = mark
        xs = [50 + 5 * (i - (n - 1) / 2) for i in range(n)]
        return "".join(f"<circle cx='{x:g}' cy='24.5' r='1.8' fill='#111'/>" for x in xs)
    n = len(mark)
    xs = [50 + 6 * (i - (n - 1) / 2) for i in range(n)]
    if mark.startswith("X"):
        return "".join(
            f"<path d='M{x - 2.5:g} {y0}L{x + 2.5:g} {y1}M{x + 2.5:g} {y0}L{x - 2.5:g} {y1}' "
            "stroke='#111' stroke-width='1.6'/>"
            for x in xs
        )
    return "".join(f"<path d='M{x:g} {y0}V{y1}' stroke='#111' stroke-width='1.8'/>" for x in xs)


def _symbol(key: str, aff: str) -> str:
    domain, glyphs = SYMBOLS.get(key, SYMBOLS["unit"])
    frame = FRAMES[(domain, aff)]
    drawn = [GLYPHS[g] for g in glyphs if g != "staff"]
    body = "".join(g for g in drawn if not g.startswith("<text"))
    k = _SHRINK.get(aff if aff == "hostile" else domain, 1.0)
    if k != 1.0 and body:  # a smaller frame: the drawing shrinks, text never does
        body = f"<g transform='translate(50 44) scale({k}) translate(-50 -44)'>{body}</g>"
    body += "".join(g for g in drawn if g.startswith("<text"))
    staff = GLYPHS["staff"] if "staff" in glyphs and domain == "land" else ""
    return frame + body + staff


def _fit(s: str, width: float) -> str:
    """Narrow a short text to *width* units when it would be wider (never smaller type)."""
    return (
        f" textLength='{width:g}' lengthAdjust='spacingAndGlyphs'" if len(s) * 11.2 > width else ""
    )


def _die(x: float, d: Any) -> str:
    op = " opacity='0.35'" if d.spent else ""
    num = str(d.die).lstrip("dD")
    return (
        f"<g{op}><rect x='{x:g}' y='63' width='22' height='23' rx='3' fill='{_e(d.fill)}' "
        f"stroke='#111' stroke-width='1.5'/>"
        f"<text x='{x + 11:g}' y='81' font-size='20' text-anchor='middle' "
        f"fill='{_e(d.ink)}'{_fit(num, 19)}>{_e(num)}</text></g>"
    )


def _shield(x: float, s: Any) -> str:
    op = " opacity='0.35'" if s.spent else ""
    ink = _ink(s.fill)
    return (
        f"<g{op}><path d='M{x:g} 63h22v10q0 9-11 14q-11-5-11-14z' fill='{_e(s.fill)}' "
        f"stroke='#111' stroke-width='1.5'/>"
        f"<text x='{x + 11:g}' y='80' font-size='20' text-anchor='middle' "
        f"fill='{ink}'{_fit(str(s.value), 19)}>{_e(s.value)}</text></g>"
    )


def _steps(steps: int, most: int) -> str:
    if most <= 0:
        return ""
    if most > 8:  # a track: the part left filled
        w = 44 * max(0.0, min(1.0, steps / most))
        return (
            f"<rect x='52' y='89' width='44' height='7' fill='#fff' stroke='#111' stroke-width='1'/>"
            f"<rect x='52' y='89' width='{w:.1f}' height='7' fill='#111'/>"
        )
    out = []
    for i in range(most):
        x = 89 - 9.5 * i
        lost = i >= steps
        out.append(
            f"<rect x='{x:g}' y='89' width='7' height='7' fill='{'#fff' if lost else '#111'}' "
            "stroke='#111' stroke-width='1'/>"
        )
    return "".join(out)


def _marks(marks: tuple[str, ...]) -> str:
    return "".join(
        f"<circle cx='{9 + 10 * i}' cy='92.5' r='4.2' fill='{MARKS.get(m, '#9ca3af')}' "
        "stroke='#111' stroke-width='1'/>"
        for i, m in enumerate(marks[:4])
    )


def _facing(deg: float) -> str:
    a = math.radians(deg)
    cx, cy, r = 14.0, 36.0, 9.0
    pts = [
        (cx + r * math.cos(a), cy - r * math.sin(a)),
        (cx + 0.7 * r * math.cos(a + 2.5), cy - 0.7 * r * math.sin(a + 2.5)),
        (cx + 0.7 * r * math.cos(a - 2.5), cy - 0.7 * r * math.sin(a - 2.5)),
    ]
    return "<polygon points='" + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + "' fill='#111'/>"


def counter_svg(counter: Any, viewer: str | None = None, sides: Any = (), size: Any = None) -> str:
    """The SVG of a :class:`~owsnb.kernel.presentation.Counter` as *viewer* sees it (affiliation
    frames: friend or hostile; *sides* orders them for the umpire). *size* sets its width and
    height (pixels or any CSS length); by default it fills its container."""
    c = counter
    aff = affiliation(c.side, viewer, sides)
    ink = _ink(c.fill)
    dim = f" width='{size}' height='{size}'" if size is not None else " width='100%' height='100%'"
    stroke = (
        f"stroke='{_e(c.border)}' stroke-width='7'"
        if c.border
        else "stroke='#111' stroke-width='2'"
    )
    dash = " stroke-dasharray='9 6'" if c.dashed else ""
    cls = "owsnb-counter owsnb-face-down" if c.face_down else "owsnb-counter"
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' class='{cls}' viewBox='0 0 100 100'{dim} "
        "font-family='Arial,Helvetica,sans-serif'>",
        f"<rect x='2' y='2' width='96' height='96' rx='7' fill='{_e(c.fill)}' {stroke}{dash}/>",
    ]
    if c.face_down:
        parts.append(_text(50, 64, "?", 48, ink, 60, True))
        parts.append("</svg>")
        return "".join(parts)
    if c.damaged:
        parts.append(
            "<path d='M2 30L30 2M2 62L62 2M2 94L94 2M34 98L98 34M66 98L98 66' stroke='#f59e0b' "
            "stroke-width='6' opacity='0.45'/>"
        )
    if c.designation:
        parts.append(_text(50, 19, c.designation, 20, ink, 92, True))
    parts.append(_echelon(c.echelon))
    parts.append(_symbol(c.symbol, aff))
    if c.left:
        parts.append(_text(14, 52, c.left, 21, ink, 22, True))
    if c.right:
        parts.append(_text(86, 52, c.right, 21, ink, 22, True))
    if c.facing is not None:
        parts.append(_facing(float(c.facing)))
    items = [("die", d) for d in c.dice] + [("shield", s) for s in c.shields]
    if items:
        shown = items if len(items) <= 4 else items[:3]
        x = 2.5
        for what, it in shown:
            parts.append(_die(x, it) if what == "die" else _shield(x, it))
            x += 24.5
        if len(items) > 4:  # more than fit: a plus sign (the card lists them all)
            parts.append(
                f"<path d='M{x + 4:g} 74.5h14M{x + 11:g} 67.5v14' stroke='{ink}' stroke-width='3'/>"
            )
    elif c.factors:
        parts.append(_text(50, 81, c.factors, 21, ink, 92, True))
    parts.append(_marks(tuple(c.marks)))
    parts.append(_steps(int(c.steps), int(c.max_steps)))
    if c.crossed:
        parts.append(
            "<path d='M6 6L94 94M94 6L6 94' stroke='#7f1d1d' stroke-width='6' opacity='0.85'/>"
        )
    parts.append("</svg>")
    return "".join(parts)


def unit_svg(ruleset: Any, unit: Any, view: Any, size: Any = 64) -> Any:
    """A unit's counter as its rule set presents it, drawn for *view*'s side (a picture in a
    notebook: ``unit_svg(game.ruleset, game.unit("B-1"), game.view("blue"))``)."""
    from owsnb.display.svg import SVG
    from owsnb.kernel.presentation import presentation_of

    c = presentation_of(ruleset).counter(unit, view)
    return SVG(counter_svg(c, getattr(view, "side", None), getattr(view, "sides", ()), size))


_FONT = re.compile(r"font-size='([0-9.]+)'")


def min_text(svg: str) -> float:
    """The smallest font size in an SVG (its units), ``inf`` when it has no text."""
    sizes = [float(x) for x in _FONT.findall(svg)]
    return min(sizes) if sizes else math.inf

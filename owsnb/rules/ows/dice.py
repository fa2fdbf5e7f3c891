"""OWS dice (2.1, 2.1.1): the die ladder, promotion and demotion, meet-or-beat, critical hits.

The ladder runs D4 < D6 < D8 < D10 < D12 < D16 < D20 (colours black, red, yellow, green, blue,
purple, white). Modifiers are summed first and the net applied (2.1.1.1); the ends clamp
(ruling R1); a success is a roll that meets or beats the target number (2.1.1.2); a roll against
a red shield scores one hit, two at 2x, three at 3x, four at 4x (2.1.1.3, rulings R2/C10).

>>> promote("d8")
'd10'
>>> promote("d8", 2), demote("d6", 3), promote("d20")
('d12', 'd4', 'd20')
>>> success_probability("d10", 7)
Fraction(2, 5)
>>> [hits(r, 4) for r in (3, 4, 8, 12, 16, 20)]
[0, 1, 2, 3, 4, 4]
"""

from __future__ import annotations

from fractions import Fraction

from owsnb.kernel.dist import Distribution

__all__ = [
    "LADDER",
    "COLOURS",
    "COLORS",
    "TEXT_COLOURS",
    "parse_die",
    "sides",
    "promote",
    "demote",
    "shift",
    "cap",
    "net_die",
    "success_probability",
    "hits",
    "roll_distribution",
    "hits_distribution",
    "rung",
]

LADDER: tuple[str, ...] = ("d4", "d6", "d8", "d10", "d12", "d16", "d20")
"""The OWS die ladder, weakest first (2.1)."""

COLOURS: dict[str, str] = {
    "d4": "#111111",
    "d6": "#c62828",
    "d8": "#f9d71c",
    "d10": "#2e7d32",
    "d12": "#1565c0",
    "d16": "#6a1b9a",
    "d20": "#ffffff",
}
"""Die colours of 2.1: black D4, red D6, yellow D8, green D10, blue D12, purple D16, white D20."""
COLORS = COLOURS
TEXT_COLOURS: dict[str, str] = {
    "d4": "#ffffff",
    "d6": "#ffffff",
    "d8": "#111111",
    "d10": "#ffffff",
    "d12": "#ffffff",
    "d16": "#ffffff",
    "d20": "#111111",
}
"""Readable text colour on each die colour."""


def parse_die(die: str | int) -> str:
    """Normalise a die name (``"D10"``, ``" d10"``, ``10``) to ``"d10"``.

    Raises:
        ValueError: not a die of the OWS ladder.

    >>> parse_die("D12"), parse_die(8)
    ('d12', 'd8')
    """
    if isinstance(die, bool):
        raise ValueError(f"{die!r} is not a die")
    name = f"d{die}" if isinstance(die, int) else str(die).strip().lower()
    if name not in LADDER:
        raise ValueError(f"{die!r} is not an OWS die; the ladder is {', '.join(LADDER)} (2.1)")
    return name


def sides(die: str | int) -> int:
    """Number of faces of a die: ``sides("d12") == 12``."""
    return int(parse_die(die)[1:])


def rung(die: str | int) -> int:
    """Position of a die on the ladder (D4 = 0 ... D20 = 6)."""
    return LADDER.index(parse_die(die))


def shift(die: str | int, n: int) -> str:
    """Move *n* rungs (positive promotes, negative demotes), clamped at D4 and D20 (R1)."""
    i = rung(die) + int(n)
    return LADDER[min(max(i, 0), len(LADDER) - 1)]


def promote(die: str | int, n: int = 1) -> str:
    """Promote *die* by *n* rungs (2.1.1.1), clamped at D20 (R1).

    >>> promote("d8", 1)
    'd10'
    """
    return shift(die, n)


def demote(die: str | int, n: int = 1) -> str:
    """Demote *die* by *n* rungs (2.1.1.1), clamped at D4 (R1).

    >>> demote("d10", 1)
    'd8'
    """
    return shift(die, -n)


def cap(die: str | int, limit: str | None) -> str:
    """The smaller of *die* and *limit* (domain caps: D12 for ASW and for sensing stealth
    aircraft, 6.4.4, 6.5.7, 8.5.3; ``None`` = no cap).

    >>> cap("d16", "d12"), cap("d8", "d12"), cap("d16", None)
    ('d12', 'd8', 'd16')
    """
    if limit is None:
        return parse_die(die)
    return LADDER[min(rung(die), rung(limit))]


def net_die(
    die: str | int, promotions: int = 0, demotions: int = 0, limit: str | None = None
) -> str:
    """Sum all modifiers, apply the net (2.1.1.1), then the domain cap (R1).

    >>> net_die("d8", promotions=3, demotions=1)
    'd12'
    >>> net_die("d10", promotions=3, limit="d12")
    'd12'
    """
    return cap(shift(die, promotions - demotions), limit)


def success_probability(die: str | int, target: int) -> Fraction:
    """P(roll >= target) on *die*: meet or beat (2.1.1.2).

    >>> success_probability("d8", 8), success_probability("d6", 7), success_probability("d4", 1)
    (Fraction(1, 8), Fraction(0, 1), Fraction(1, 1))
    """
    n = sides(die)
    t = max(int(target), 1)
    return Fraction(max(n - t + 1, 0), n)


def hits(roll: int, shield: int, *, critical: bool = True, max_hits: int = 4) -> int:
    """Hits scored by *roll* against a red *shield* (2.1.1.3; R2/C10: at most 4).

    A roll below the shield scores nothing; meeting it scores 1; ``k`` times the shield scores
    ``k`` hits. With ``critical=False`` (grey shields, detection) a success is one hit.

    >>> hits(8, 4), hits(7, 4), hits(8, 4, critical=False), hits(6, 3, max_hits=2)
    (2, 1, 1, 2)
    """
    shield = int(shield)
    if shield <= 0:
        return min(max_hits, 1) if critical else 1
    if roll < shield:
        return 0
    if not critical:
        return 1
    return min(max_hits, roll // shield)


def roll_distribution(die: str | int) -> Distribution:
    """The exact distribution of one roll of *die*."""
    d = parse_die(die)
    return Distribution.die(sides(d), label=d)


def hits_distribution(
    die: str | int, shield: int, *, critical: bool = True, max_hits: int = 4
) -> Distribution:
    """Exact distribution of the hits one roll of *die* scores against *shield* (2.1.1.3).

    >>> dict(hits_distribution("d12", 4))
    {0: Fraction(1, 4), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 12)}
    """
    return roll_distribution(die).map(
        lambda r: hits(r, shield, critical=critical, max_hits=max_hits),
        label=f"hits, {parse_die(die)} vs shield {shield}",
    )

"""Weather and visibility (Basic L44, L54; WWII section 13, L505-L540).

The turn roll sets the ground condition; each impulse the phasing player rolls cloud cover
(with a hysteresis DRM from the last impulse) and, under overcast skies, precipitation; in the
dark or half-light a fog roll (ruling #22 and appendix C.6). The charts are placeholders
(``tables/wwii.yaml: weather``); observation ranges are the text's (L505-L535).

>>> observation_range({"base": {"day": 4, "dawn": 2, "dusk": 2}, "night_moon": {"new": 0, "quarter": 1, "full": 2},
...     "absolute": {"fog": 0}, "change": {"rain": -2}}, "day", "full", {"precipitation": "rain"})
2
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.dist import Distribution
from owsnb.kernel.state import StateLike

__all__ = ["lookup", "observation_range", "cloud_distribution", "roll_turn", "roll_impulse"]


def lookup(rows: list, value: int) -> str:
    """First row ``[upper bound, result]`` whose bound is >= *value* (last row otherwise)."""
    for bound, result in rows:
        if value <= int(bound):
            return str(result)
    return str(rows[-1][1])


def observation_range(table: Any, part: str, moon: str, weather: Any) -> int:
    """Hexes of observation (L505-L535): day 4, dawn/dusk 2, night by moon; fog 0; rain -2."""
    rng = int(table["night_moon"][moon]) if part == "night" else int(table["base"][part])
    cond = weather.get("precipitation", "none") if weather else "none"
    if weather and weather.get("fog") == "fog":
        cond = "fog"
    if cond in table.get("absolute", {}):
        return int(table["absolute"][cond])
    return max(0, rng + int(table.get("change", {}).get(cond, 0)))


def cloud_distribution(table: Any, previous: str) -> Distribution:
    """Exact distribution of this impulse's cloud cover."""
    drm = int(table["hysteresis"].get(previous, 0))
    return Distribution.die(10).map(lambda r: lookup(table["cloud"], r + drm), label="cloud cover")


def roll_turn(state: StateLike, dice: Any) -> dict[str, Any]:
    """The turn's weather (L44): the ground condition; with option ``cloud_roll`` = ``turn`` also
    the cloud cover, precipitation and fog, which then hold for every impulse of the turn."""
    t = state.tables["weather"]
    r = dice.roll(10, purpose="ground condition for the turn", rule="L44", visible_to=None)
    out = {**dict(state.public.get("weather", {})), "ground": lookup(t["ground"], r)}
    if state.options.get("cloud_roll", "impulse") == "turn":
        from owsnb.rules.tocs.model import daypart

        out = _atmosphere(state, dice, daypart(state), out, rule="L44")
    return out


def roll_impulse(state: StateLike, dice: Any, part: str) -> dict[str, Any]:
    """This impulse's atmosphere (L54, L519); unchanged if option ``cloud_roll`` is ``turn`` (L44)."""
    old = dict(state.public.get("weather", {}))
    if state.options.get("cloud_roll", "impulse") == "turn":
        return old
    return _atmosphere(state, dice, part, old, rule="L54")


def _atmosphere(
    state: StateLike, dice: Any, part: str, old: dict[str, Any], *, rule: str
) -> dict[str, Any]:
    t = state.tables["weather"]
    prev = old.get("cloud", "clear")
    drm = int(t["hysteresis"].get(prev, 0))
    r = dice.roll(10, purpose=f"cloud cover (DRM {drm:+d})", rule=rule, visible_to=None)
    cloud = lookup(t["cloud"], r + drm)
    precip = "none"
    fog = "none"
    if cloud == "overcast":
        precip = lookup(
            t["precipitation"], dice.roll(10, purpose="precipitation", rule="L519", visible_to=None)
        )
    if part != "day":
        fog = lookup(t["fog"], dice.roll(10, purpose="fog", rule="L528", visible_to=None))
    wind = "high-wind" if r == int(t.get("wind_high_on", 11)) else "calm"
    return {**old, "cloud": cloud, "precipitation": precip, "fog": fog, "wind": wind}

"""Victory (ruling R20): the rule book has none, so scenarios define it on a placeholder scheme.

At the end of the battle each side scores

* the points of every objective hex it controls (a side takes control of an objective by
  ending a move there with no enemy stand in it; control starts as the scenario says),
* ``broken_division`` points for every enemy division at morale 0 (§9),
* ``destroyed_stand`` points for every enemy stand destroyed.

The higher score wins; a lead of ``decisive_margin`` or more is decisive; equal scores are a
draw. Point values come from the ``victory`` table (placeholders) and the scenario's
``rules.victory`` block.

A side with no stand left on the battlefield and none still to arrive (every stand destroyed or
withdrawn, §9, R22) has left the field: the battle ends (``OperationalArt.is_over``), the
objectives it controlled score for nobody, and the side still on the battlefield wins a decisive
victory whatever the points — leaving is never rewarded (§2: "Nothing can be done contrary to
what could or would be done in actual war").

>>> verdict({"axis": 5, "soviet": 9}, decisive_margin=4)
('soviet', 'decisive victory')
>>> verdict({"axis": 5, "soviet": 5}, decisive_margin=4)
(None, 'draw')
"""

from __future__ import annotations

from typing import Any

from owsnb.kernel.events import Event, hex_set, note
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import StateLike
from owsnb.rules.opart.stands import formations, is_division

__all__ = [
    "settings",
    "objectives",
    "control_events",
    "left_battlefield",
    "score",
    "verdict",
    "outcome",
]


def settings(state: StateLike) -> dict[str, int]:
    """Point values in force (table ``victory`` merged with the scenario's ``rules.victory``)."""
    from owsnb.rules.opart.tables import table

    out = {k: int(v) for k, v in table(state, "victory").items()}
    out.update({k: int(v) for k, v in state.public.get("victory", {}).items()})
    return out


def objectives(state: StateLike) -> list[dict[str, Any]]:
    """Objective hexes: ``{"hex", "name", "points", "control"}`` (control from the map's facts)."""
    out = []
    default = settings(state).get("objective", 1)
    for o in state.public.get("objectives", ()):
        h = state.map.hex(o["hex"])
        out.append(
            {
                "hex": o["hex"],
                "name": o.get("name", o["hex"]),
                "points": int(o.get("points", default)),
                "control": state.map.info(h).facts.get("control"),
            }
        )
    return out


def control_events(state: StateLike, unit: Any, h: Hex) -> list[Event]:
    """Events for *unit* ending a move in *h*: it takes control of an objective there (R20)."""
    for o in state.public.get("objectives", ()):
        if state.map.hex(o["hex"]) != h:
            continue
        if state.map.info(h).facts.get("control") == unit.side:
            return []
        if any(u.side != unit.side for u in state.units.values() if u.hex == h and u.id != unit.id):
            return []
        return [
            hex_set(h, {"control": unit.side}, rule="R20"),
            note(f"{unit.side.title()} takes {o.get('name', o['hex'])}", rule="R20"),
        ]
    return []


def left_battlefield(state: StateLike) -> list[str]:
    """Sides with no stand on the battlefield and none still to arrive (§10), in side order."""
    present = {u.side for u in state.units.values() if u.hex is not None or u.box == "arriving"}
    return [s for s in state.sides if s not in present]


def score(state: StateLike) -> dict[str, dict[str, int]]:
    """Points of each side now: objectives, broken enemy divisions, destroyed enemy stands, total.
    A side that has left the battlefield holds no objective."""
    cfg = settings(state)
    gone = set(left_battlefield(state))
    out = {s: {"objectives": 0, "broken": 0, "destroyed": 0, "total": 0} for s in state.sides}
    for o in objectives(state):
        if o["control"] in out and o["control"] not in gone:
            out[o["control"]]["objectives"] += o["points"]
    morale = state.public.get("morale", {})
    for fid, f in formations(state).items():
        if is_division(state, fid) and int(morale.get(fid, 1)) <= 0:
            for s in out:
                if s != f["side"]:
                    out[s]["broken"] += cfg.get("broken_division", 0)
    for u in state.units.values():
        if u.box == "destroyed":
            for s in out:
                if s != u.side:
                    out[s]["destroyed"] += cfg.get("destroyed_stand", 0)
    for s in out.values():
        s["total"] = s["objectives"] + s["broken"] + s["destroyed"]
    return out


def verdict(totals: dict[str, int], decisive_margin: int) -> tuple[str | None, str]:
    """(winner or None, "decisive victory" / "marginal victory" / "draw") from point totals."""
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return None, "draw"
    lead = ranked[0][1] - ranked[1][1]
    return ranked[0][0], "decisive victory" if lead >= decisive_margin else "marginal victory"


def outcome(state: StateLike) -> dict[str, Any]:
    """Scores, the winner and kind of victory were the battle to end now, the verdict as text
    (``text``) and the standing in play (``standing``: who leads).

    >>> from types import SimpleNamespace as NS
    >>> st = NS(sides={"axis": NS(title="German"), "soviet": NS(title="Soviet")}, public={}, tables={},
    ...         units={}, map=None)
    >>> outcome(st)["standing"]
    'level (German 0, Soviet 0)'
    """
    sc = score(state)
    winner, kind = verdict(
        {s: v["total"] for s, v in sc.items()}, settings(state).get("decisive_margin", 4)
    )
    pts = ", ".join(f"{state.sides[s].title} {v['total']}" for s, v in sc.items())
    gone = left_battlefield(state) if getattr(state, "map", None) is not None else []
    if gone:  # the side still on the field wins, whatever the points (R20)
        staying = [s for s in state.sides if s not in gone]
        winner, kind = (staying[0], "decisive victory") if len(staying) == 1 else (None, "draw")
        pts = (
            " and ".join(state.sides[s].title for s in gone)
            + f" {'has' if len(gone) == 1 else 'have'} left the battlefield; {pts}"
        )
    text = f"{kind} for {state.sides[winner].title} ({pts})" if winner else f"draw ({pts})"
    standing = f"{state.sides[winner].title} leads ({pts})" if winner else f"level ({pts})"
    return {"scores": sc, "winner": winner, "result": kind, "text": text, "standing": standing}

"""Orders as clicks: what a player clicks on the table to give an order, decided from what the
seat's page shows (its view: which counters stand where, which are off the map, which hold
several units), never by typing a unit id or a hex number.

:func:`clicks_for` turns an order into the clicks that give it on an
:class:`owsnb.widgets.App`: the order's button, then for each value a click on a counter (on the
map; in its stack's list; in the tray of units off the map), on an empty hex, or a choice in a
list, then Submit. A hex holding counters is given last, by a click on its counter (or its
stack) once the units of the order are chosen: the click then fills nothing but the place. The
browser tests and ``bench/table.py`` play these clicks in Chromium; the widget tests play them
through the widgets' own methods (:func:`play_in_app`).

>>> import owsnb
>>> g = owsnb.load("tutorial", seed=1, save=False)
>>> while g.clock.step != "3.A.1": _ = g.submit(f"{g.clock.acting[0]}: done")
>>> [str(c) for c in clicks_for(g, "red", "red: move R-LST-1 0406")]
['verb move', 'stack 0306', 'chip R-LST-1', 'hex 0406', 'submit']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from owsnb.kernel.orders import Order
from owsnb.widgets.params import is_unit

__all__ = ["Click", "clicks_for", "play_in_app", "TUTORIAL_TURN", "next_order", "answer_owed"]

TUTORIAL_TURN = (
    "red: move R-LST-1 0406",
    "blue: move B-DDG-1801 0407",
    "red: amphibious-assault R-CAB-1 0506",
    "red: amphibious-assault R-MAR-1 0506",
    "red: fly R-J16-CAP 0907",
    "blue: fly B-F16-CAP 0907",
    "red: insert R-SOF-1 1708",
    "blue: insert B-SOF-1 0505",
    "red: recon R-SOF-1 1807",
    "blue: recon B-SOF-1 0506",
    "red: io disrupt-c2 space:blue:c2",
    "blue: io assure-c2 B-DDG-1801",
    "red: isr 1707",
    "blue: isr 0506",
    "blue: strike R-052D-1 salvos=B-HF3-1:hf3,B-PGG-619:hf3",
    "red: shields R-052D-1:3",
    "red: strike B-SQ-CCK salvos=R-PHL-1:phl16,R-PHL-1:phl16",
    "blue: shields B-SQ-CCK:2",
    "red: attack 0506 with=R-CAB-1,R-MAR-1",
    "blue: defensive-fire",
)
"""The tutorial's first turn, as its briefing gives it ("A first turn to copy")."""


@dataclass(frozen=True)
class Click:
    """One click: ``verb`` (an order's button), ``marker`` (a lone counter on the map),
    ``stack`` (a stack of counters, which opens its list), ``chip`` (a unit in a stack's list or
    in the off-map tray), ``hex`` (an empty hex), ``select`` (a choice in a parameter's list:
    *what* is ``(parameter, value)``), ``submit``, ``done`` (a side's Done) or ``advance``."""

    kind: str
    what: Any = None

    def __str__(self) -> str:
        if self.what is None:
            return self.kind
        w = self.what
        return f"{self.kind} {':'.join(map(str, w)) if isinstance(w, tuple) else w}"


def _units_at(view: Any, h: Any) -> list[Any]:
    return [u for u in view.units.values() if u.hex == h]


def _stack_order(view: Any, h: Any, actor: str) -> list[str]:
    """The stack as the page draws it: the acting side's units first, then by id."""
    return [u.id for u in sorted(_units_at(view, h), key=lambda u: (u.side != actor, u.id))]


def _unit_clicks(view: Any, uid: str, actor: str) -> list[Click]:
    u = view.units.get(uid)
    if u is None:
        raise AssertionError(f"{uid} is not on this seat's page: it cannot be clicked")
    if u.hex is None:
        return [Click("chip", uid)]  # the off-map tray
    label = view.map.label(u.hex)
    if len(_units_at(view, u.hex)) > 1:
        return [Click("stack", label), Click("chip", uid)]
    return [Click("marker", uid)]


def clicks_for(game: Any, seat: str, order: str | Order) -> list[Click]:
    """The clicks that give *order* on the table of *seat* (``"umpire"`` acting for the order's
    side): decided from *seat*'s view of *game* (what its page shows) and the order's spec (what
    each parameter is: a unit, a list of units or of their salvos, a hex, a choice)."""
    o = order if isinstance(order, Order) else Order.parse(str(order))
    view = game.view(seat)
    spec = game.legal_orders(o.side)[o.verb]
    args = spec.type.bind(o)
    units = view.units
    out = [Click("verb", o.verb)]
    hexes: list[tuple[str, Any]] = []
    for p in spec.type.params:
        v = args.get(p.name)
        if v is None:
            continue
        values = v if isinstance(v, tuple) else (v,)
        if p.kind == "hex":
            hexes.append((p.name, v))
            continue
        # a counter's click gives a unit (own, enemy or target: the panel's is_unit) or its salvo
        if p.choices or (not (is_unit(p) or p.kind == "salvo") and not p.repeat):
            out.append(Click("select", (p.name, str(v))))
            continue
        for x in values:
            uid = str(x).split(":")[0]
            if uid in units:
                out += _unit_clicks(view, uid, o.side)
            else:  # not a counter (a space dashboard row): its list
                out.append(Click("select", (p.name, str(x))))
    for _, label in hexes:  # places last: the units they are for are chosen by then
        h = game.map.hex(label)
        here = _units_at(view, h)
        if not here:
            out.append(Click("hex", label))
            continue
        # a stack: its click gives the place once only a place is wanted; a lone counter gives
        # its hex when it fills nothing else (an enemy, or a unit whose part is already chosen)
        out.append(Click("stack", label) if len(here) > 1 else Click("marker", here[0].id))
    out.append(Click("submit"))
    return out


def next_order(game: Any, orders: Iterable[str]) -> str | None:
    """The first of *orders* that the first side acting now may give (its verb legal now), or
    ``None``: that side is done with the step (in a step both sides play, one after the other,
    as one screen shows them)."""
    acting = list(game.clock.acting)
    if not acting:
        return None
    side = acting[0]
    verbs = game.legal_orders(side).verbs
    for text in orders:
        if text.partition(":")[0] == side and text.partition(": ")[2].split()[0] in verbs:
            return text
    return None


def answer_owed(game: Any, side: str) -> str | None:
    """What *side* must say before its Done, when a rule refuses Done until it answers (OWS
    shields, 9.2.1; defensive fires, 10.3): the first example order the game accepts — else
    ``None`` (Done is accepted)."""
    from owsnb.kernel.errors import IllegalOrderError

    try:
        game.check(f"{side}: done")
        return None
    except IllegalOrderError:
        pass
    for spec in game.legal_orders(side).specs:
        for ex in spec.examples:
            try:
                game.check(ex)
                return str(ex)
            except IllegalOrderError:
                continue
    raise IllegalOrderError(f"{side} can say nothing at {game.clock}")


def play_in_app(
    app: Any, clicks: Iterable[Click], seat_of: Callable[[str], Any] | None = None
) -> Any:
    """Play *clicks* on an :class:`owsnb.widgets.App` through its widgets (no browser): the
    verb's button, the counters' markers and list buttons, the map at a hex's centre, a list's
    choice, Submit. Returns Submit's submission. (It touches the widgets only through their own
    methods and traits: this module imports no UI library.)"""
    op, mv = app.orders, app.map
    sub = None
    for c in clicks:
        if c.kind == "verb":
            op.verbs.value = c.what
        elif c.kind == "marker" or c.kind == "stack":
            view = app.table.view
            if c.kind == "marker":
                h = view.units[c.what].hex
            else:
                h = view.map.hex(c.what)
            marker = next(m for m in mv.units.layers if m._owsnb_hex == view.map.label(h))
            marker._click_callbacks(type="click")
        elif c.kind == "chip":
            buttons = [
                w
                for w in (
                    *mv.tray.children,
                    *(x for g in mv.boxes.children for x in getattr(g, "children", ())),
                )
                if hasattr(w, "click") and getattr(w, "description", None) == c.what
            ]
            assert buttons, f"no button for {c.what} in the stack's list or the off-map tray"
            buttons[0].click()
        elif c.kind == "hex":
            lon, lat = app.table.view.map.layout.centre(app.table.view.map.hex(c.what))
            assert mv.click(lon, lat) == c.what
        elif c.kind == "select":
            name, value = c.what
            ed = op._editors[name]._owsnb_input
            if hasattr(ed, "rows") and hasattr(ed, "set_value"):  # a list, edited row by row
                ed._add()
                ed.rows[-1].children[0].value = value
            else:
                ed.value = value
        elif c.kind == "submit":
            sub = op.submit()
            assert sub is not None, f"refused: {app.table.refusal}"
        elif c.kind == "done":
            op.done()
        elif c.kind == "advance":
            op.advance()
        else:  # pragma: no cover
            raise ValueError(c.kind)
    return sub

"""What the computer does, as the seat at the screen may know it: a panel above the App's tabs
and arrows on the map ("play against the computer" in the solo demo).

A side played by the computer acts like a person at another seat: the student sees only what
their own side may see of it — the events of its orders that are visible to them (a detected
move, a strike declared on their units, the dice of an exchange they are party to), the clock
moving on. :func:`seen_act` turns one order of the computer into what this seat saw of it —
lines in words with their rule paragraphs and marks for the map (arrows of moves and attacks,
rings on targets) — computed from the seat's own views before and after and from the order's
events this seat may see, never from the truth. An order the seat sees nothing of leaves no
trace (not even that it was given). :class:`ComputerPanel` lists the latest of these, says who
plays the computer's sides and whether one is thinking; the map draws the marks (the table's
``marks``).

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> from owsnb.widgets.table import Table
    >>> game = tiny_game()
    >>> blue = Table.of(game, "blue")
    >>> panel = ComputerPanel(blue, {"red": "greedy"})
    >>> "red" in panel.who.value and "greedy" in panel.who.value
    True
    >>> before = game.view("blue")
    >>> sub = game.submit("red: done")
    >>> act = seen_act("blue", "red", sub.events, before, game.view("blue"))
    >>> act.lines, act.marks, bool(act)  # nothing to tell blue: nothing is listed
    ((), (), False)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import ipywidgets as W

from owsnb.display.results import event_line
from owsnb.kernel.hexgrid import Hex
from owsnb.widgets.panel import Panel
from owsnb.widgets.render import style_widget

__all__ = ["Act", "ComputerPanel", "seen_act"]


@dataclass(frozen=True)
class Act:
    """One order of a computer's side as a seat saw it.

    Attributes:
        side: the side that acted.
        when: the clock (as text) the order was given at.
        lines: ``(text, rule)`` pairs in words, as the results feed says them.
        marks: for the map: ``{"kind": "move" | "attack" | "target", "from": label or None,
            "to": label, "title": text}``.
        finished: the step it finished, when the order ended its part of a step (the clock
            says so to everyone).
    """

    side: str
    when: str
    lines: tuple[tuple[str, str], ...] = ()
    marks: tuple[Mapping[str, Any], ...] = ()
    finished: str = ""

    def __bool__(self) -> bool:
        return bool(self.lines or self.marks)


def _named(value: Any, out: list[Any]) -> None:
    """Every unit id (string) and hex named anywhere in an event's payload."""
    if isinstance(value, Hex):
        out.append(value)
    elif isinstance(value, str):
        out.append(value)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _named(k, out)
            _named(v, out)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for v in value:
            _named(v, out)


def _hex_of(view: Any, label: str) -> Hex | None:
    if not (2 <= len(label) <= 8):
        return None
    try:
        return view.map.hex(label)
    except Exception:  # noqa: BLE001 - not a hex label
        return None


def seen_act(seat: str, side: str, events: Iterable[Any], before: Any, after: Any) -> Act:
    """What *seat* saw of one order of *side*: its *events* this seat may see (the others are
    dropped here), read against the seat's views *before* and *after* it.

    Moves of *side*'s units seen before and after become arrows; an event naming units of the
    seat's side (a strike declared on them, an attack on their hex) rings them, with an arrow
    from each of *side*'s units it names that the seat sees; lines are the events in words.
    """
    seen = [e for e in events if e.visible(seat) and e.kind != "rng"]
    lab = after.map.label
    steps = {u.id: u.steps for u in before.units.values()}
    lines: list[tuple[str, str]] = []
    for e in seen:
        line = event_line(e, after, steps)
        ch = e.data.get("changes") if e.kind == "unit.set" else None
        if ch and "steps" in ch:
            steps[e.data.get("id")] = ch["steps"]
        if e.kind == "unit.move" and e.data.get("to") is not None:
            uid = e.data.get("id")
            if uid in after.units:
                line = (f"{uid} moves to {lab(e.data['to'])}", str(e.rule or ""))
        if line is not None and line[0] and line not in lines:
            lines.append(line)
    marks: list[dict[str, Any]] = []
    moved: set[str] = set()
    for e in seen:
        uid = e.data.get("id") if e.kind == "unit.move" else None
        u, b = after.units.get(uid), before.units.get(uid)
        if uid is None or u is None or u.side != side or u.hex is None or uid in moved:
            continue
        moved.add(uid)
        start = b.hex if b is not None and b.hex is not None and b.hex != u.hex else None
        marks.append(
            {
                "kind": "move",
                "from": None if start is None else lab(start),
                "to": lab(u.hex),
                "title": f"{side} moved {uid}" if start is not None else f"{uid} seen here",
            }
        )
    targets: dict[Hex, str] = {}
    shooters: dict[Hex, str] = {}
    for e in seen:
        if e.kind in ("unit.move", "clock.set"):
            continue
        names: list[Any] = []
        _named(e.data, names)
        for n in names:
            if isinstance(n, Hex):
                if any(x.hex == n and x.side == seat for x in after.units.values()):
                    targets.setdefault(n, f"{side} acts on {lab(n)}")
                continue
            unit = after.units.get(n) or before.units.get(n)
            if unit is None:  # a hex named by its label (an attack on 0506)?
                h = _hex_of(after, n)
                if h is not None and any(
                    x.hex == h and x.side == seat for x in after.units.values()
                ):
                    targets.setdefault(h, f"{side} acts on {n}")
                continue
            if unit.hex is None:
                continue
            if unit.side == seat:
                targets.setdefault(unit.hex, f"{side} acts on {n}")
            elif unit.side == side:
                shooters.setdefault(unit.hex, n)
    for h, title in targets.items():
        froms: list[Hex | None] = [s for s in shooters if s != h] or [None]
        for s in froms:
            marks.append(
                {
                    "kind": "attack" if s is not None else "target",
                    "from": None if s is None else lab(s),
                    "to": lab(h),
                    "title": title if s is None else f"{title} with {shooters[s]}",
                }
            )
    c = before.clock
    finished = ""
    a = after.clock
    moved_on = (a.turn, a.phase, a.step) != (c.turn, c.phase, c.step) or side in a.done
    if side in c.acting and side not in a.acting and moved_on and c.step:
        finished = f"{c.step} {c.step_title}".strip()
    when = f"turn {c.turn}" + (f" · step {c.step}" if c.step else "")
    return Act(side, when, tuple(lines), tuple(marks), finished)


class ComputerPanel(Panel):
    """The sides the computer plays, whether it is thinking now, and what this seat saw of its
    latest orders (newest first), above the App's tabs (:meth:`owsnb.widgets.App.add_aside`).

    Args:
        table: the student's table (their side's seat).
        players: side -> what plays it (``"greedy"``, ``"search(budget=1.0)"``...).
        budget: seconds the computer may take per order (said on the panel), if known.
        keep: how many of its orders are listed.
    """

    def __init__(
        self,
        table: Any,
        players: Mapping[str, str],
        *,
        budget: float | None = None,
        keep: int = 5,
    ):
        self.table = table
        self.players = dict(players)
        self.budget = budget
        self.keep = keep
        self.acts: list[Act] = []
        self.thinking: set[str] = set()
        self.finished: dict[str, str] = {}  # side -> the last step it finished
        self.who = W.HTML()
        self.status = W.HTML()
        self.record_html = W.HTML()
        super().__init__(
            [
                style_widget(),
                self.who,
                self.status,
                self.record_html,
            ],
            layout=W.Layout(
                # at the top of the side column, outside the part that scrolls (App.add_aside):
                # always in sight and never over the tabs; at most a fifth of a small window
                # (its list scrolls within), so the orders keep the rest
                width="100%",
                flex="0 0 auto",
                border="1px solid #fed7aa",
                padding="2px 6px",
                margin="0 0 4px 0",
                max_height="min(160px, 20vh)",
                overflow="auto",
            ),
        )
        self.add_class("owsnb-computer")
        self.watch(self._draw_status, ["revision"])
        self._draw_who()
        self._draw_status()

    def _draw_who(self) -> None:
        each = ", ".join(
            f"<b>{html.escape(s)}</b> ({html.escape(p)})" for s, p in self.players.items()
        )
        budget = f", ≤ {self.budget:g} s an order" if self.budget else ""
        self.who.value = (
            f"<div class='owsnb-w'>The computer plays {each}{budget}; you see only what "
            f"<b>{html.escape(self.table.seat.side)}</b> may know of it.</div>"
        )

    def set_thinking(self, side: str, thinking: bool) -> None:
        """Say that *side*'s computer is deciding (or has decided)."""
        (self.thinking.add if thinking else self.thinking.discard)(side)
        self._draw_status()

    def _draw_status(self, change: Any = None) -> None:
        view = self.table.view
        acting = list(view.clock.acting)
        busy = [s for s in self.players if s in acting]
        me = self.table.seat.side
        if (
            self.table.seat.ruleset.is_over(view)
            if hasattr(self.table.seat.ruleset, "is_over")
            else False
        ):
            text = "The game is over."
        elif busy:
            text = (
                f"<b>{html.escape(', '.join(busy))}</b> (computer) is thinking…"
                if any(s in self.thinking for s in busy) or me not in acting
                else f"<b>{html.escape(', '.join(busy))}</b> (computer) acts too."
            )
            if me in acting:
                text += f" Your orders, <b>{html.escape(me)}</b>, are open as well."
        elif me in acting:
            text = f"▶ Your turn, <b>{html.escape(me)}</b>: give your orders, then Done."
        else:
            text = "<span class='muted'>The umpire's step: the table moves on by itself.</span>"
        done = "; ".join(
            f"{html.escape(s)} finished step {html.escape(st)}" for s, st in self.finished.items()
        )
        if done:
            text += f"<br><span class='muted'>{done}</span>"
        value = f"<div class='owsnb-w'>{text}</div>"
        if self.status.value != value:
            self.status.value = value

    def record(self, act: Act) -> None:
        """Show *act* (nothing if this seat saw nothing of it) and draw its marks on the map."""
        if act.finished:
            self.finished[act.side] = act.finished
        if not act:
            self._draw_status()
            return
        self.acts.insert(0, act)
        del self.acts[self.keep :]
        items = "".join(
            f"<li><b>{html.escape(a.side)}</b> <span class='muted'>({html.escape(a.when)})"
            "</span>: "
            + "<br>".join(
                html.escape(t) + (f" <span class='rule'>{html.escape(r)}</span>" if r else "")
                for t, r in a.lines
            )
            + "</li>"
            for a in self.acts
        )
        self.record_html.value = (
            "<div class='owsnb-w owsnb-feed'><b>What the computer did</b> "
            "<span class='muted'>(latest first; "
            "<span style='color:#ea580c;font-weight:600'>orange</span> on the map until your "
            f"next order)</span><ol>{items}</ol></div>"
        )
        if act.marks:  # kept until this seat gives its next order
            self.table.marks = [*self.table.marks, *(dict(m) for m in act.marks)]
        self._draw_status()

"""Coach: one or two lines at the top of the orders tab — what this seat may do now, and how.

Built from the rule set's sequence of play (the step, its title and paragraph, who acts) and the
seat's legal orders now (verbs that have something to act on), phrased with the rule set's
``guide().VERBS`` ("Move your ships: click a ship, then a shaded hex, then Submit") or, for a
verb it does not phrase, from the order's parameters; ``guide().STEPS`` adds what matters in the
step. A scenario may add its own hints per step (``coach:`` for every seat, ``sides.<side>.coach``
for one side only; a key ``"1:3.A.1"`` is turn 1's step 3.A.1, ``"3.A.1"`` any turn's). All of
it comes from the seat's view and its legal orders: nothing the seat may not know.

Example:
    >>> from owsnb.widgets._doc import tiny_game
    >>> c = Coach(tiny_game(), seat="blue")
    >>> print(c.text())
    Your turn — step 1 Play.
    Nothing to order: click Done.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from owsnb.kernel.state import UMPIRE
from owsnb.widgets.panel import Panel
from owsnb.widgets.table import Table

__all__ = ["Coach", "coach_lines", "verb_phrase"]

_GENERIC = ("done", "advance")


def _guide(ruleset: Any) -> Any:
    return ruleset.guide() if hasattr(ruleset, "guide") else None


def verb_phrase(ruleset: Any, verb: str, step: str = "") -> str:
    """How to give *verb* with the mouse: the rule set's phrase (``guide().VERBS``, a
    ``"verb@step"`` entry first), else one made from the order's parameters."""
    phrases = getattr(_guide(ruleset), "VERBS", None) or {}
    if f"{verb}@{step}" in phrases:
        return str(phrases[f"{verb}@{step}"])
    if verb in phrases:
        return str(phrases[verb])
    otype = ruleset.order_types.get(verb)
    if otype is None:
        return verb
    clicks = []
    for p in otype.params:
        if p.optional:
            continue
        if p.kind == "hex":
            clicks.append("click a hex")
        elif p.kind in ("target", "enemy") or p.name.startswith("target"):
            clicks.append("click an enemy counter")
        elif p.kind == "unit":
            clicks.append("click your unit" if not p.repeat else "pick your units")
        else:
            clicks.append(f"choose the {p.name}")
    doc = (otype.doc or verb).split(";")[0]
    how = ", ".join([f"click {verb}", *clicks, "Submit"])
    return f"{doc[:1].upper()}{doc[1:]}: {how}"


def _hint(view: Any, side: str) -> str:
    """The scenario's hint for this step (turn-specific first), for everyone and for *side*."""
    c = view.clock
    keys = (f"{c.turn}:{c.step}", str(c.step))
    out = []
    pools: list[Mapping[str, Any]] = [view.scenario.get("coach") or {}]
    s = view.sides.get(side)
    brief = s.private.get("briefing") if s is not None else None
    if isinstance(brief, Mapping):
        pools.append(brief.get("coach") or {})
    for pool in pools:
        for k in keys:
            if k in pool:
                out.append(str(pool[k]))
                break
    return " ".join(out)


def coach_lines(ruleset: Any, view: Any, seat: str, actor: str, legal: Any, live: bool) -> list:
    """The coach's lines as ``(kind, text)``: ``"step"``, ``"do"``, ``"hint"``, ``"wait"``."""
    c = view.clock
    if not live:
        return [("wait", "You are looking at the past: orders are off until you return to now.")]
    try:
        over = bool(ruleset.is_over(view))
    except Exception:  # noqa: BLE001 - a view may lack what the truth has: not over then
        over = False
    if over or (legal is not None and not legal.verbs and not c.acting):
        return [("wait", "The game is over: the briefing tab shows the result.")]
    rule = ""
    try:
        _, step = ruleset.current(view)
        rule = step.rule
    except Exception:  # noqa: BLE001 - an unknown step has no paragraph
        step = None
    title = f"step {c.step} {c.step_title}".strip()
    cite = f" (rule {rule})" if rule else ""
    acting = list(c.acting)
    me = actor or seat
    names = ", ".join(view.sides[s].title if s in view.sides else s for s in acting)
    act = "acts" if len(acting) == 1 else "act"
    lines: list[tuple[str, str]] = []
    verbs = [s for s in (legal or ()) if s.verb not in _GENERIC]
    usable = [s for s in verbs if not s.type.params or any(s.candidates.values()) or s.examples]
    # orders that act on the map first; passing the move (defer), cards and notes after
    usable.sort(key=lambda s: not any(p.kind in ("unit", "hex") for p in s.type.params))
    steps_text = (getattr(_guide(ruleset), "STEPS", None) or {}).get(str(c.step), "")
    if me in acting or (me == UMPIRE and (usable or (legal is not None and legal.verbs))):
        who = (
            "Your turn"
            if seat != UMPIRE
            else f"{view.sides[me].title} acts — you give its orders"
            if me in view.sides
            else "The umpire acts"
        )
        lines.append(("step", f"{who} — {title}{cite}." + (f" {steps_text}" if steps_text else "")))
        done = [s for s in acting if s in c.done]
        if me in done:
            lines.append(("wait", f"You are done with this step; waiting for {names}."))
            return lines
        # the two orders that matter most; the verb buttons list the others (a coach that
        # re-listed them would change, and be re-sent, after nearly every order)
        phrases = [verb_phrase(ruleset, s.verb, str(c.step)) for s in usable[:2]]
        tail = "When you have finished, click Done." if usable else "Nothing to order: click Done."
        if legal is not None and "done" not in legal.verbs and "advance" in legal.verbs:
            tail = "Then click Advance to end the step."
        body = ". ".join(p.rstrip(".") for p in phrases)
        lines.append(("do", (body + ". " if body else "") + tail))
    else:
        lines.append(("step", f"{title}{cite}."))
        lines.append(
            (
                "wait",
                f"{names} {act} now — wait for them." if acting else "The game moves on by itself.",
            )
        )
    hint = _hint(view, me if me in view.sides else seat)
    if hint:  # the scenario's own words first, under the step: they say exactly what to do
        waiting = lines[-1][0] == "wait"
        lines.insert(1, ("hint", f"When your turn comes: {hint}" if waiting else hint))
    return lines


_STYLE = {
    "step": "font-weight:600",
    "do": "",
    "wait": "color:#92400e",
    "hint": "background:#fef9c3;padding:1px 4px",
}


class Coach(Panel):
    """The step coach of one seat (see the module docstring).

    Args:
        source: a :class:`~owsnb.widgets.table.Table`, a Game (with *seat*) or a seat.
        seat: the side whose view is used when *source* is a Game.
    """

    def __init__(self, source: Any, seat: str | None = None):
        self.table = Table.of(source, seat)
        self.html = W.HTML()
        super().__init__([self.html], layout=W.Layout(width="100%"))
        self.add_class("owsnb-coach")
        self.table.hold(self)
        self.watch(self._redraw, ["revision", "actor"])
        self._redraw()

    def lines(self) -> list[tuple[str, str]]:
        """What the coach says now, as ``(kind, text)`` lines."""
        t = self.table
        return coach_lines(
            t.seat.ruleset, t.view, t.seat.side, t.actor or t.seat.side, t.legal, t.live
        )

    def text(self) -> str:
        """What the coach says now, as plain text."""
        return "\n".join(text for _, text in self.lines())

    def _redraw(self, change: Any = None) -> None:
        body = "".join(
            f"<div style='{_STYLE.get(kind, '')}'>{html.escape(text)}</div>"
            for kind, text in self.lines()
        )
        value = (
            "<div style='font:14px system-ui,sans-serif;line-height:1.4;border-left:4px solid "
            f"#f59e0b;background:#fffbeb;padding:5px 10px;margin:2px 0 6px'>{body}</div>"
        )
        if self.html.value != value:
            self.html.value = value

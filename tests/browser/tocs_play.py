"""Playing TOCS (Nijmegen) with the mouse: one impulse of a side, and the battle it fought;
shared by the JupyterLab test (umpire's seat) and the double-blind seminar test (side seats)."""

from __future__ import annotations

from typing import Any

from owsnb.rules.tocs.attack_preview import AttackPreview
from tests.browser.driver import Table, mouse_move, mouse_unit_order, mouse_verb_only, next_to


def tocs_impulse(t: Table, side: str, attack: str | None = None) -> dict[str, Any]:
    """One impulse of *side* (B3) with the mouse: begin (the OP roll previewed), activate the
    unit alone on its hex (as the seat sees it) closest to the enemy that may then move, move it
    next to the enemy, and — *attack*
    given — attack an adjacent enemy hex with that kind (10.6; fought at Done). The enemy's
    hexes come from the mirror (a player knows them from the perimeter, recon and probes):
    on a side's map the hex is empty, so the click names the hex."""
    n: dict[str, Any] = {"begin": 0, "activate": 0, "move": 0, "attack": 0}
    t.submit(mouse_verb_only(t, side, "begin"))
    n["begin"] += 1
    truth = t.mirror.view("umpire")
    enemies = {u.hex for u in truth.units.values() if u.side != side and u.hex is not None}
    view = t.view()
    alone = [
        u
        for u in t.mirror.legal_orders(side)["activate"].candidates["unit"]
        if view.units[u].hex is not None and t.stack_of(u) == [u]
    ]

    def can_move(uid: str) -> bool:  # e.g. not held in an Engagement Battle
        what_if = t.mirror.fork()
        what_if.submit(f"{side}: activate {uid}")
        return "move" in what_if.legal_orders(side).verbs

    ranked = sorted(alone, key=lambda u: (min(view.units[u].hex.distance(e) for e in enemies), u))
    uid = next(u for u in ranked if can_move(u))
    t.submit(mouse_unit_order(t, side, "activate", uid))
    n["activate"] += 1
    if mouse_move(t, side, prefer=next_to(enemies)):
        n["move"] += 1
    legal = t.mirror.legal_orders(side)
    if attack and "attack" in legal.verbs:
        spec = legal["attack"]
        for ex in spec.examples:
            a = spec.type.bind(ex)
            h = t.mirror.map.hex(a["hex"])
            if a.get("kind") != attack or h not in enemies:
                continue
            t.choose_verb("attack")
            t.click_unit(a["unit"])
            foes = [u.id for u in view.units.values() if u.hex == h]
            if foes:  # the umpire sees the enemy: a click on its counter names the hex
                t.click_unit(t.stack_of(foes[0])[0])
            else:
                t.click_hex(h, a["unit"])
            t.select("kind", attack)
            order = spec.type.make(side, unit=a["unit"], hex=a["hex"], kind=attack)
            t.wait_order(order)
            shown = t.assert_preview_shown(order)  # the page shows exactly what it would draw
            # exact through the server too (a registered dataclass, not text): a table with one
            # row per CRT column
            assert isinstance(shown, AttackPreview), type(shown)
            rows = t.orders.locator("table:has(th:text-is('column')) tr")
            assert rows.count() == 1 + len(t.mirror.state.tables["crt"]["columns"])
            t.shot(f"tocs-{t.seat}-attack-preview.png")
            t.submit(order)
            n["attack"] += 1
            n["battle"] = a["hex"]
            break
    return n


def battle_shown(t: Table, sub: Any) -> str:
    """After the Done that fought the battles (its dice already checked by the Table): the
    battle's result, as the seat may see it, shows in the order panel."""
    battle = [
        str(e.data.get("text", ""))
        for e in sub.events
        if e.kind == "note"
        and e.visible(t.seat)
        and str(e.data.get("text", "")).startswith("Battle at")
    ]
    assert battle, [str(e) for e in sub.events if e.visible(t.seat)]
    t.panel_has(battle[0])
    return battle[0]

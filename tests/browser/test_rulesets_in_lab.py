"""The four other rule sets played in JupyterLab with the mouse (headless Debian Chromium).

For each rule set a small play notebook (``tests/browser/notebooks/<ruleset>-play.ipynb``: the
scenario and ``owsnb.App(game, seat="umpire")``) is opened in a JupyterLab on loopback and run;
then every order is given with real clicks: a counter (its reach overlay shows), a hex (the order
and its exact preview show), Submit (the counter moves; an attack's dice and result show), and
Done to move the clock on. The page is checked (order panel, clock, counters' positions) and the
kernel's game is read back after each order and compared with a local *mirror* given the same
orders: same clock, units and event log, so the browser gave exactly those orders (see
:mod:`tests.browser.driver`). Screenshots and figures go to ``test-artifacts/``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import owsnb
from tests.browser.driver import (
    ARTIFACTS,
    Table,
    enemy_hexes,
    mouse_move,
    mouse_suggested,
    mouse_verb_only,
    next_to,
    notebook_game,
    open_notebook,
    shot,
)
from tests.browser.tocs_play import battle_shown, tocs_impulse

NOTEBOOKS = Path(__file__).parent / "notebooks"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _table(page: Any, notebook: str, var: str, index: int = 0) -> Table:
    scenario, seed = notebook_game(NOTEBOOKS / notebook, var)
    return Table(page, index, owsnb.load(scenario, seed=seed, save=False), var=var)


def _figures(name: str, **figures: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.txt").write_text(
        "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in figures.items())
    )


# -- Operational Art -------------------------------------------------------------------------
def mouse_attack_stand(t: Table, side: str) -> Any:
    """§14 with the mouse: the verb, the attacking stand's counter, the target's counter; the
    exact preview shows. Returns the order (not yet submitted)."""
    spec = t.mirror.legal_orders(side)["attack"]
    for ex in spec.examples:
        a = spec.type.bind(ex)
        if not (t.marker(a["unit"]).count() and t.marker(a["target"]).count()):
            continue
        if t.stack_of(a["target"])[0] != a["target"]:
            continue  # a click on that counter picks the stand on top of it
        t.choose_verb("attack")
        t.click_unit(a["unit"])
        t.click_unit(a["target"])
        t.wait_order(ex)
        t.assert_preview_shown(ex)
        return ex
    return None


def test_opart_a_full_day_with_the_mouse(lab: Any, page: Any) -> None:
    """Kalinovka, seed 1943: on every card of turn 1 the activated division attacks (when it
    can) and moves a stand, with clicks; then Done card after card to the end of the day
    (12 turns of 6 cards, §12), where the game is over."""
    t = _table(page, "opart-play.ipynb", "game")
    first_paint = open_notebook(page, lab, "opart-play.ipynb")
    with t.recorded("opart-play"):
        started = time.monotonic()
        t.wait_clock()
        t.assert_in_step()
        attacks = moves = 0
        for _card in range(6):
            side = t.mirror.clock.acting[0]
            if "attack" in t.mirror.legal_orders(side).verbs:
                order = mouse_attack_stand(t, side)
                if order is not None:
                    if attacks == 0:
                        shot(page, "opart-attack-preview.png")
                    t.submit(order)
                    attacks += 1
                    if attacks == 1:
                        t.shot("opart-attack-result.png")
            if "move" in t.mirror.legal_orders(side).verbs and mouse_move(t, side):
                moves += 1
                if moves == 1:
                    t.shot("opart-moved.png")
            t.assert_in_step()
            t.done()
        assert t.mirror.clock.turn == 2 and attacks >= 3 and moves >= 5, (attacks, moves)
        t.assert_in_step()
        turn1 = time.monotonic() - started
        while not t.mirror.is_over():
            t.done()
        day = time.monotonic() - started
        end = t.assert_in_step()
        assert end["over"] and t.mirror.clock.turn == 13
        outcome = t.mirror.outcome()
        t.root.get_by_text(f"the game is over: {outcome}").wait_for(timeout=30_000)
        t.shot("opart-end-of-day.png")
    _figures(
        "opart-play",
        first_paint_s=f"{first_paint:.1f}",
        turn_1_s=f"{turn1:.1f} ({attacks} attacks, {moves} moves, 6 cards)",
        whole_day_s=f"{day:.1f} ({len(t.submitted)} orders, {t.clicks} clicks, 72 cards)",
        outcome=outcome,
    )


# -- Combat Operations -------------------------------------------------------------------------
def mouse_enter(t: Table, side: str, ref: str) -> Any:
    """A reinforcement enters (14.2): the verb, the unit from its list, its entry hex clicked on
    the map (or the counter already there: its units are not reinforcements, so the click names
    the hex); the counter appears on that hex."""
    spec = t.mirror.legal_orders(side)["enter"]
    view = t.view()
    for ex in spec.examples:
        a = spec.type.bind(ex)
        h = t.mirror.map.hex(a["to"])
        there = [u.id for u in view.units.values() if u.hex == h]
        t.show_map()
        if not there and not t.clickable(*t.screen_of(h, ref)):
            continue
        t.choose_verb("enter")
        t.select("unit", a["unit"])
        if there:
            t.marker(there[0]).first.click()
            t.clicks += 1
        else:
            t.click_hex(h, ref)
        t.wait_order(ex)
        t.assert_preview_shown(ex)
        t.submit(ex)
        assert a["unit"] in t.positions() and t.marker(a["unit"]).count() == 1
        return ex
    return None


def mouse_attack_hex(t: Table, side: str) -> Any:
    """Combat (11.0) with the mouse: the verb, the attacking counter, then the enemy counter (a
    click on it names the hex attacked); the preview shows. Returns the order."""
    spec = t.mirror.legal_orders(side)["attack"]
    view = t.view()
    for ex in spec.examples:
        a = spec.type.bind(ex)
        if len(a["with"]) != 1 or a.get("support"):
            continue
        unit = a["with"][0]
        h = t.mirror.map.hex(a["hex"])
        foes = [u.id for u in view.units.values() if u.hex == h]
        if t.stack_of(unit)[0] != unit or not foes:
            continue
        t.choose_verb("attack")
        t.click_unit(unit)
        t.click_unit(t.stack_of(foes[0])[0])
        order = spec.type.make(side, hex=a["hex"], **{"with": (unit,)})
        t.wait_order(order)
        t.assert_preview_shown(order)
        return order
    return None


def _combatops_game(t: Table, name: str) -> dict[str, Any]:
    """Turn 1 with real orders (reinforcements enter, units move next to the enemy, attacks
    with their preview), then Done to the end of the game (15.0); the figures."""
    started = time.monotonic()
    t.wait_clock()
    t.assert_in_step()
    ref = next(u.id for u in t.view().units.values() if u.hex is not None)
    n = {"enter": 0, "move": 0, "attack": 0}
    while t.mirror.clock.turn == 1:
        c = t.mirror.clock
        side = c.acting[0]
        if c.step.endswith("3"):  # movement (8.0), reinforcements entering (14.2)
            for _ in range(2):
                if "enter" in t.mirror.legal_orders(side).verbs and mouse_enter(t, side, ref):
                    n["enter"] += 1
            if "move" in t.mirror.legal_orders(side).verbs:
                if mouse_move(t, side, prefer=next_to(enemy_hexes(t, side))):
                    n["move"] += 1
        if c.step.endswith("4") and "attack" in t.mirror.legal_orders(side).verbs:
            order = mouse_attack_hex(t, side)
            if order is not None:
                t.shot(f"combatops-{name}-attack-preview.png")
                t.submit(order)
                n["attack"] += 1
                t.shot(f"combatops-{name}-attack-result.png")
        t.assert_in_step()
        t.done()
    turn1 = time.monotonic() - started
    assert n["move"] >= 2 and sum(n.values()) >= 4, n
    t.assert_in_step()
    while not t.mirror.is_over():
        t.done()
    assert t.assert_in_step()["over"]
    outcome = t.mirror.outcome()
    t.root.get_by_text(f"the game is over: {outcome}").wait_for(timeout=30_000)
    t.shot(f"combatops-{name}-end.png")
    return {
        f"{name}_turn_1_s": f"{turn1:.1f} ({n})",
        f"{name}_whole_game_s": f"{time.monotonic() - started:.1f} ({len(t.submitted)} orders, "
        f"{t.clicks} clicks, over in turn {t.mirror.clock.turn})",
        f"{name}_outcome": outcome,
        f"{name}_orders": n,
    }


def test_combatops_both_scenarios_to_their_end(lab: Any, page: Any) -> None:
    """Both scenarios of the notebook (one App each, seed 23) played to their end: in turn 1
    Red's reinforcements enter, units move next to the enemy and attack (preview, result)."""
    first_paint = open_notebook(page, lab, "combatops-play.ipynb")
    page.locator(".owsnb-app").nth(1).locator(".leaflet-marker-icon").first.wait_for()
    figures: dict[str, Any] = {"first_paint_s": f"{first_paint:.1f}"}
    for index, var in enumerate(["red_attack", "blue_attack"]):
        t = _table(page, "combatops-play.ipynb", var, index)
        with t.recorded(f"combatops-{var}"):
            figures.update(_combatops_game(t, var))
    assert figures["red_attack_orders"]["enter"] == 2
    assert figures["red_attack_orders"]["attack"] + figures["blue_attack_orders"]["attack"] >= 1
    _figures("combatops-play", **figures)


# -- The Operational Combat Series -------------------------------------------------------------
def test_tocs_a_full_turn_with_the_mouse(lab: Any, page: Any) -> None:
    """Nijmegen, seed 44: the Allied impulse (begin, activate, move, hasty attack; Done fights
    the battle: its dice and result show), the German impulse (begin, activate, move), then
    Done until the turn-end roll ends turn 1 (B3.11)."""
    t = _table(page, "tocs-play.ipynb", "game")
    first_paint = open_notebook(page, lab, "tocs-play.ipynb")
    with t.recorded("tocs-play"):
        started = time.monotonic()
        t.wait_clock()
        t.assert_in_step()
        allied = tocs_impulse(t, "allied", attack="hasty")
        assert allied["move"] == allied["attack"] == 1, allied
        t.assert_in_step()
        battle = battle_shown(t, t.done())  # reserve commitment, the battle, the turn-end roll
        t.shot("tocs-battle.png")
        german = tocs_impulse(t, "german")
        assert german["move"] == 1, german
        t.assert_in_step()
        while t.mirror.clock.turn == 1:
            t.done()
        t.assert_in_step()
        t.shot("tocs-turn-2.png")
    _figures(
        "tocs-play",
        first_paint_s=f"{first_paint:.1f}",
        turn_1_s=f"{time.monotonic() - started:.1f} ({len(t.submitted)} orders, {t.clicks} clicks)",
        allied=allied,
        german=german,
        battle=battle,
    )


# -- Operational Scale -------------------------------------------------------------------------
def test_opscale_a_campaign_to_its_end(lab: Any, page: Any) -> None:
    """River Valley, seed 3: West buys an armour battalion with two experience rolls
    (previewed, TS.2), both sides move in each of three turns (TS.4), West engages the enemy
    and fights it out (OES), and Done moves the clock through turns 1-3; then Done to the end
    of the campaign (turn 10; the command deck runs out on the way, TS.1)."""
    t = _table(page, "opscale-play.ipynb", "game")
    first_paint = open_notebook(page, lab, "opscale-play.ipynb")
    with t.recorded("opscale-play"):
        started = time.monotonic()
        t.wait_clock()
        t.assert_in_step()
        n = {"buy": 0, "move": 0, "engage": 0, "fight": 0}
        while t.mirror.clock.turn <= 3:
            c = t.mirror.clock
            side = c.acting[0]
            legal = t.mirror.legal_orders(side)
            if "buy" in legal.verbs and side == "blue" and n["buy"] == 0:
                t.choose_verb("buy")
                t.select("type", "armour-bn")
                t.select("xp", "2")
                order = legal["buy"].type.make(side, type="armour-bn", xp=2)
                t.wait_order(order)
                t.assert_preview_shown(order)
                t.shot("opscale-buy-preview.png")
                t.submit(order)
                n["buy"] += 1
            if c.phase == "4" and "move" in legal.verbs:
                enemies = enemy_hexes(t, side)
                closest = lambda u, h: min(h.distance(e) for e in enemies)  # noqa: E731, B023
                if mouse_move(t, side, prefer=closest):
                    n["move"] += 1
            if c.phase == "5" and "engage" in legal.verbs and n["engage"] == 0:
                order = mouse_suggested(t, side, "engage")
                t.shot("opscale-engage-preview.png")
                assert_fits(t, t.orders.get_by_role("button", name="Use", exact=True))
                t.submit(order)
                n["engage"] += 1
                continue  # the defender declares its retaliating units (OES.2): Done, none
            if c.phase == "5" and "fight" in legal.verbs:
                t.submit(mouse_verb_only(t, side, "fight"))  # to the end (OES.10)
                n["fight"] += 1
                t.shot("opscale-fought.png")
                continue
            t.assert_in_step()
            t.done()
        t.assert_in_step()
        assert n["buy"] == 1 and n["move"] >= 4 and n["engage"] == 1 and n["fight"] >= 1, n
        t.shot("opscale-turn-4.png")
        three_turns = time.monotonic() - started
        while not t.mirror.is_over():
            t.done()
        assert t.assert_in_step()["over"]
        assert any("deck is exhausted" in str(e.data.get("text")) for e in t.mirror.events)
        outcome = t.mirror.outcome()
        t.root.get_by_text(f"the game is over: {outcome}").wait_for(timeout=30_000)
        t.shot("opscale-end.png")
    _figures(
        "opscale-play",
        first_paint_s=f"{first_paint:.1f}",
        three_turns_s=f"{three_turns:.1f}",
        whole_campaign_s=f"{time.monotonic() - started:.1f} ({len(t.submitted)} orders, "
        f"{t.clicks} clicks)",
        orders=n,
        outcome=outcome,
    )


# -- what the page offers ----------------------------------------------------------------------
def assert_fits(t: Table, control: Any) -> None:
    """*control* is drawn whole inside the order panel: not squeezed (its label fits in it) nor
    cut off at the panel's right edge; the panel is saved as ``orders-panel.png``."""
    control.scroll_into_view_if_needed()
    box, panel = control.bounding_box(), t.orders.bounding_box()
    assert box is not None and panel is not None
    ARTIFACTS.mkdir(exist_ok=True)
    t.orders.screenshot(path=str(ARTIFACTS / "orders-panel.png"))
    squeezed = control.evaluate("el => el.scrollWidth > el.clientWidth")
    assert not squeezed and box["x"] + box["width"] <= panel["x"] + panel["width"], (box, panel)


def test_the_verb_buttons_are_the_orders_offered(lab: Any, page: Any) -> None:
    """The umpire hands the panel to the side that does not act: the kernel offers it no order,
    and the page must show no verb button."""
    t = _table(page, "opart-play.ipynb", "game")
    open_notebook(page, lab, "opart-play.ipynb")
    t.wait_clock()
    buttons = t.orders.locator(".widget-toggle-buttons button")
    acting = t.mirror.clock.acting[0]
    offered = [v for v in t.mirror.legal_orders(acting).verbs if v not in ("done", "advance")]
    assert buttons.all_inner_texts() == offered
    idle = next(s for s in t.mirror.state.sides if s != acting)
    t.select("act as", idle)
    t.orders.get_by_role("button", name=f"Done ({idle})").wait_for(timeout=30_000)
    assert t.mirror.legal_orders(idle).verbs == []
    t.shot("verbs-after-act-as.png")
    assert [b.strip() for b in buttons.all_inner_texts()] == []

"""The four other rule sets played in JupyterLab with the mouse (headless Debian Chromium).

For each rule set a small play notebook (``tests/browser/notebooks/<ruleset>-play.ipynb``: the
scenario and ``owsnb.App(game, seat="umpire")``) is opened in a JupyterLab on loopback and run;
then every order is given with real clicks: a counter (its reach overlay shows), a hex (the order
and its exact preview show), Submit (the counter moves; an attack's dice and result show), and
Done to move the clock on. The page is checked (order panel, clock, counters' positions) and the
kernel's game is read back after each order and compared with a local *mirror* given the same
orders: same clock, units and event log, so the browser gave exactly those orders (see
:mod:`tests.browser.driver`). Screenshots and figures go to ``test-artifacts/``.

The sides fight: each moves toward the enemies its own view shows and attacks (engages)
whenever its legal orders offer it, picking the target from those orders (the panel's
suggestions), never from what the umpire's page shows of the enemy; the umpire's page only
says where the mouse can click. What the fighting did is asserted from the game's events.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.widgets.briefing import standing_of
from tests.browser.driver import (
    ARTIFACTS,
    Table,
    enemy_hexes,
    mouse_move,
    mouse_suggested,
    mouse_verb_only,
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
        assert t.mirror.clock.turn == 2 and attacks >= 5 and moves >= 5, (attacks, moves)
        t.assert_in_step()
        resolved = [  # §14's result line of each attack, from the game's events
            str(e.data["text"])
            for e in t.mirror.events
            if e.kind == "note" and e.rule == "14" and " attacks " in str(e.data.get("text"))
        ]
        assert len(resolved) == attacks, resolved
        turn1 = time.monotonic() - started
        while not t.mirror.is_over():
            t.done()
        day = time.monotonic() - started
        end = t.assert_in_step()
        assert end["over"] and t.mirror.clock.turn == 13
        outcome = t.mirror.outcome()
        game_over_shown(t, outcome)
        t.shot("opart-end-of-day.png")
    _figures(
        "opart-play",
        first_paint_s=f"{first_paint:.1f}",
        turn_1_s=f"{turn1:.1f} ({attacks} attacks, {moves} moves, 6 cards)",
        attacks=resolved,
        whole_day_s=f"{day:.1f} ({len(t.submitted)} orders, {t.clicks} clicks, 72 cards)",
        outcome=outcome,
    )


# -- Combat Operations -------------------------------------------------------------------------
COMBATOPS_ACTIVE_TURNS = 4  # both sides fight turns 1-4 with the mouse, then pass to the end
COMBATOPS_MORE_TURNS = 7  # ... or on, while fewer than three attacks were made (their contact
# depends on the rules' movement and the CRT's retreats: a fix there may delay it a turn)


def game_over_shown(t: Table, outcome: Any) -> None:
    """The table's banner says the game is over with the rule set's final standing as this seat
    knows it (the briefing's judge, issue 21) — which names the winner the rule set's outcome
    names."""
    st = standing_of(t.mirror.ruleset, t.view())
    text = str(outcome)
    if st is not None:
        assert st.get("final"), st
        if st.get("leader") and " wins" in text:
            assert text.startswith(f"{st['leader']} wins"), (st, text)
        text = st["text"]
    t.root.get_by_text(f"the game is over: {text}").wait_for(timeout=30_000)


def _ref(t: Table) -> str:
    """A unit whose counter is on the page, to measure hexes from (units die in combat)."""
    return next(
        u.id for u in t.view().units.values() if u.hex is not None and t.marker(u.id).count()
    )


def _atk(view: Any, uid: str) -> int:
    """*uid*'s printed attack strength in *view*, its own side's (0: none shown)."""
    u = view.units.get(uid)
    return int((u.data.get("atk") if u is not None else 0) or 0)


def toward_contact(t: Table, side: str) -> Any:
    """Ranks moves for :func:`mouse_move`: the strongest unit not yet next to an enemy *side*
    sees, to the hex nearest such an enemy (units already in contact last)."""
    enemies = enemy_hexes(t, side)
    view = t.mirror.view(side)

    def near(h: Any) -> int:
        return min(h.distance(e) for e in enemies)

    def rank(uid: str, h: Any) -> tuple:
        now = near(view.units[uid].hex)
        return (now <= 1, -_atk(view, uid), near(h), -now)

    return rank


def mouse_enter(t: Table, side: str) -> Any:
    """A reinforcement enters (14.2), the strongest first: the verb, the unit from its list, its
    entry hex clicked on the map (or the counter already there: its units are not
    reinforcements, so the click names the hex); the counter appears on that hex."""
    spec = t.mirror.legal_orders(side)["enter"]
    view = t.view()
    ref = _ref(t)
    own = t.mirror.view(side)
    examples = sorted(spec.examples, key=lambda ex: -_atk(own, spec.type.bind(ex)["unit"]))
    for ex in examples:
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


def mouse_attack(t: Table, side: str) -> Any:
    """Combat (11.0) with the mouse, the strongest attack the legal orders offer (most attacking
    units and artillery support). One attacker without support: the verb, the attacking counter,
    then the enemy counter (a click on it names the hex attacked); else the verb and the attack
    from the panel's suggestions. The preview shows. Returns the order (not yet submitted)."""
    legal = t.mirror.legal_orders(side)
    spec = legal["attack"]
    ok = [i for i, ex in enumerate(spec.examples) if ex in legal]  # 11.9 soak-off may forbid some
    if not ok:
        return None

    def weight(i: int) -> int:
        a = spec.type.bind(spec.examples[i])
        return len(a["with"]) + len(a.get("support") or ())

    index = max(ok, key=weight)
    order = spec.examples[index]
    a = spec.type.bind(order)
    view = t.view()
    foes = [u.id for u in view.units.values() if u.hex == t.mirror.map.hex(a["hex"])]
    unit = a["with"][0]
    if weight(index) == 1 and foes and t.stack_of(unit)[0] == unit:
        t.choose_verb("attack")
        t.click_unit(unit)
        t.click_unit(t.stack_of(foes[0])[0])
        t.wait_order(order)
        t.assert_preview_shown(order)
        return order
    return mouse_suggested(t, side, "attack", index)


def fight_record(events: list[Any]) -> dict[str, Any]:
    """What attacks did, from their events: combats resolved on the CRT (11.0), units
    eliminated (12.0, 11.10) and units retreated (11.10); step losses (12.0)."""
    return {
        "combats": sum(1 for e in events if e.kind == "note" and "column" in e.data),
        "lost": sorted(
            {
                e.data["id"]
                for e in events
                if e.kind == "unit.set" and e.data["changes"].get("box") == "eliminated"
            }
        ),
        "retreated": sorted(
            {e.data["id"] for e in events if e.kind == "unit.move" and e.rule == "11.10"}
        ),
        "step_losses": sum(
            1 for e in events if e.kind == "unit.set" and "steps" in e.data["changes"]
        ),
    }


def _combatops_game(t: Table, name: str) -> dict[str, Any]:
    """Turns 1-4 fought with real orders, then Done to the end of the game (15.0); the figures.

    In each movement step (8.0) the side brings on its strongest reinforcement (14.2) and moves
    its strongest unit not yet in contact toward the nearest enemy it sees; in each combat step
    (11.0, 10.0) it attacks as long as the legal orders offer an attack (preview, result)."""
    started = time.monotonic()
    t.wait_clock()
    t.assert_in_step()
    n = {"enter": 0, "move": 0, "attack": 0}
    fights: list[Any] = []
    while not t.mirror.is_over() and (
        t.mirror.clock.turn <= COMBATOPS_ACTIVE_TURNS
        or (t.mirror.clock.turn <= COMBATOPS_MORE_TURNS and n["attack"] < 3)
    ):
        c = t.mirror.clock
        side = c.acting[0]
        given = sum(n.values())
        if c.phase != "0" and c.step.endswith("3"):  # movement (8.0), reinforcements (14.2)
            if "enter" in t.mirror.legal_orders(side).verbs and mouse_enter(t, side):
                n["enter"] += 1
            if "move" in t.mirror.legal_orders(side).verbs and enemy_hexes(t, side):
                if mouse_move(t, side, prefer=toward_contact(t, side)):
                    n["move"] += 1
        if c.phase != "0" and c.step[-1] in "46":  # combat (11.0), exploitation combat (10.0)
            while "attack" in t.mirror.legal_orders(side).verbs:
                order = mouse_attack(t, side)
                if order is None:
                    break
                shown = fight_record(fights)["combats"] > 0
                if not shown:  # the pictures are of the first attack resolved on the CRT
                    t.shot(f"combatops-{name}-attack-preview.png")
                events = t.submit(order).events
                fights += events
                n["attack"] += 1
                if not shown and fight_record(events)["combats"]:
                    t.shot(f"combatops-{name}-attack-result.png")
        if sum(n.values()) > given:
            t.assert_in_step()
        t.done()
    active = time.monotonic() - started
    fought = fight_record(fights)
    t.assert_in_step()
    while not t.mirror.is_over():
        t.done()
    assert t.assert_in_step()["over"]
    outcome = t.mirror.outcome()
    game_over_shown(t, outcome)
    t.shot(f"combatops-{name}-end.png")
    return {
        f"{name}_turns_1_{COMBATOPS_ACTIVE_TURNS}_s": f"{active:.1f} ({n})",
        f"{name}_fought": fought,
        f"{name}_whole_game_s": f"{time.monotonic() - started:.1f} ({len(t.submitted)} orders, "
        f"{t.clicks} clicks, over in turn {t.mirror.clock.turn})",
        f"{name}_outcome": outcome,
        f"{name}_orders": n,
    }


def test_combatops_both_scenarios_to_their_end(lab: Any, page: Any) -> None:
    """Both scenarios of the notebook (one App each, seed 23) played to their end: in turns 1-4
    each side brings on reinforcements, moves toward contact and attacks whenever the legal
    orders offer an attack (preview, result); the attacks' own events show combats resolved on
    the CRT and units eliminated or retreated."""
    first_paint = open_notebook(page, lab, "combatops-play.ipynb")
    page.locator(".owsnb-app").nth(1).locator(".leaflet-marker-icon").first.wait_for()
    figures: dict[str, Any] = {"first_paint_s": f"{first_paint:.1f}"}
    for index, var in enumerate(["red_attack", "blue_attack"]):
        t = _table(page, "combatops-play.ipynb", var, index)
        with t.recorded(f"combatops-{var}"):
            figures.update(_combatops_game(t, var))
    _figures("combatops-play", **figures)
    assert figures["red_attack_orders"]["enter"] >= 4, figures["red_attack_orders"]
    for var in ("red_attack", "blue_attack"):
        n, fought = figures[f"{var}_orders"], figures[f"{var}_fought"]
        assert n["move"] >= 4 and n["attack"] >= 3, (var, n)
        assert fought["combats"] >= 3, (var, fought)
        assert fought["lost"] or fought["retreated"], (var, fought)


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
    (previewed, TS.2), both sides move toward the enemy in each of three turns (TS.4), and in
    each combat phase a side engages the enemy from the panel's suggestions whenever it is
    offered and fights it out (OES.1-OES.10): the game's events show at least three
    engagements opened and ended and units destroyed. Done moves the clock through turns 1-3;
    then Done to the end of the campaign (turn 10; the command deck runs out on the way,
    TS.1)."""
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
            if c.phase == "5" and "engage" in legal.verbs:  # whenever one is offered
                order = mouse_suggested(t, side, "engage")
                if n["engage"] == 0:
                    t.shot("opscale-engage-preview.png")
                    assert_fits(t, t.orders.get_by_role("button", name="Use", exact=True))
                t.submit(order)
                n["engage"] += 1
                continue  # the defender declares its retaliating units (OES.2): Done, none
            if c.phase == "5" and "fight" in legal.verbs:
                t.submit(mouse_verb_only(t, side, "fight"))  # to the end (OES.10)
                n["fight"] += 1
                if n["fight"] == 1:
                    t.shot("opscale-fought.png")
                continue
            t.assert_in_step()
            t.done()
        t.assert_in_step()
        assert n["buy"] == 1 and n["move"] >= 4 and n["engage"] >= 3 and n["fight"] >= 3, n
        fought = engagement_record(t.mirror.events)
        assert fought["opened"] >= 3 and fought["ended"] >= 3 and fought["destroyed"], fought
        t.shot("opscale-turn-4.png")
        three_turns = time.monotonic() - started
        while not t.mirror.is_over():
            t.done()
        assert t.assert_in_step()["over"]
        assert any("deck is exhausted" in str(e.data.get("text")) for e in t.mirror.events)
        outcome = t.mirror.outcome()
        game_over_shown(t, outcome)
        t.shot("opscale-end.png")
    _figures(
        "opscale-play",
        first_paint_s=f"{first_paint:.1f}",
        three_turns_s=f"{three_turns:.1f}",
        whole_campaign_s=f"{time.monotonic() - started:.1f} ({len(t.submitted)} orders, "
        f"{t.clicks} clicks)",
        orders=n,
        fought=fought,
        outcome=outcome,
    )


def engagement_record(events: list[Any]) -> dict[str, Any]:
    """What the engagements did, from the game's events: opened (OES.1), ended (OES.10) and the
    units destroyed."""
    notes = [e for e in events if e.kind == "note"]
    return {
        "opened": sum(1 for e in notes if e.rule == "OES.1"),
        "ended": sum(1 for e in notes if e.rule == "OES.10"),
        "destroyed": sorted(
            {
                e.data["id"]
                for e in events
                if e.kind == "unit.set" and e.data["changes"].get("box") == "destroyed"
            }
        ),
    }


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

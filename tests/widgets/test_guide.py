"""The briefing and the step coach: on every seat, for every bundled scenario; nothing a side may
not know; the tutorial's first turn played from the coach's words alone."""

from __future__ import annotations

import html
import re

import pytest

import owsnb
from owsnb.kernel.orders import Order
from owsnb.kernel.state import UMPIRE
from owsnb.scenario import list_scenarios
from owsnb.testing import find_leaks, hidden_tokens
from owsnb.testing.leaks import Position
from owsnb.widgets import App
from owsnb.widgets.briefing import Briefing, briefing_html
from owsnb.widgets.coach import Coach, coach_lines, verb_phrase

SCENARIOS = list_scenarios()


@pytest.fixture(scope="module")
def games():
    return {name: owsnb.load(name, seed=1, save=False) for name in SCENARIOS}


def _private_texts(game, side):
    """Everything the scenario gives *side* alone (its briefing, victory and hints)."""
    b = dict(game.state.sides[side].private.get("briefing") or {})
    texts = [b.get("text", ""), b.get("victory", ""), *dict(b.get("coach") or {}).values()]
    return [t for t in texts if t]


def _lines(text):
    """Distinctive lines of a text (long enough not to occur by chance)."""
    return [ln.strip() for ln in re.split(r"[\n.]", text) if len(ln.strip()) > 30]


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_scenario_has_a_briefing_on_every_seat_with_the_live_standing(games, name) -> None:
    """Situation, scale, victory conditions, order of battle and the rule set's standing on
    each side's seat and the umpire's."""
    game = games[name]
    for seat in (*game.state.sides, UMPIRE):
        page = briefing_html(game.ruleset, game.view(seat))
        assert "How it stands now" in page, (name, seat)
        assert "<h3>Scale</h3>" in page and "one hex is" in page
        assert "<h3>Order of battle</h3>" in page
        assert "no victory conditions evaluated" not in page
        if seat != UMPIRE and name != "sandbox":  # (the sandbox has no forces to brief)
            assert "Your briefing" in page, (name, seat)  # its own mission, for it alone
        if seat != UMPIRE:
            own = [u.id for u in game.view(seat).units.values() if u.side == seat]
            assert all(f"<code>{html.escape(u)}</code>" in page for u in own[:20])


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_sides_briefing_and_coach_never_carry_another_sides_secrets(games, name) -> None:
    """Hidden information: what the scenario gives one side (briefing, secret victory, hints)
    shows on that side's seat and the umpire's, never on another side's; the order of battle
    lists only the units the side's view holds."""
    game = games[name]
    sides = list(game.state.sides)
    for side in sides:
        page = briefing_html(game.ruleset, game.view(side))
        coach = "\n".join(t for _, t in Coach(game, seat=side).lines())
        for other in sides:
            for text in _private_texts(game, other):
                for line in _lines(text):
                    if other == side:
                        continue
                    assert line not in page and line not in coach, (name, side, other, line)
        b = dict(game.state.sides[side].private.get("briefing") or {})
        umpire = briefing_html(game.ruleset, game.view(UMPIRE))
        for key in ("text", "victory"):  # the umpire reads every side's briefing
            for line in _lines(b.get(key, ""))[:1]:
                assert html.escape(line).split("*")[0][:20] in umpire, (name, side, line)
        oob = page.split("<h3>Order of battle</h3>", 1)[1]
        tokens = {
            t for t in hidden_tokens(game.state, side, game.ruleset) if not isinstance(t, Position)
        }
        assert find_leaks([oob], tokens) == [], (name, side)


@pytest.mark.parametrize("name", ["tocs-nijmegen", "combatops-red-attack", "combatops-blue-attack"])
def test_double_blind_public_briefings_name_no_enemy_unit(games, name) -> None:
    """Where the rule set hides the enemy (TOCS L9, face-down counters 2.1), the texts both sides
    read — briefing, victory, special rules — name no unit a side has not seen."""
    game = games[name]
    sc = game.state.scenario
    public = [
        str(sc.get("briefing", "")),
        str(sc.get("victory", "")),
        *map(str, sc.get("special_rules", ())),
    ]
    for side in game.state.sides:
        tokens = {
            t for t in hidden_tokens(game.state, side, game.ruleset) if not isinstance(t, Position)
        }
        assert find_leaks(public, tokens) == [], (name, side)


def test_tocs_victory_conditions_are_secret_to_each_side(games) -> None:
    """L87-L88: each side's victory conditions are secret from the other until the end."""
    game = games["tocs-nijmegen"]
    allied = briefing_html(game.ruleset, game.view("allied"))
    german = briefing_html(game.ruleset, game.view("german"))
    assert "the Allied table is the German one" in allied and "Allied table" not in german
    assert "your VP" in allied and "the enemy&#x27;s are secret" in allied


def test_app_has_the_briefing_tab_and_the_coach_above_the_orders() -> None:
    game = owsnb.load("tutorial", seed=1, save=False)
    app = App(game, seat="red")
    assert list(app.tabs.titles)[:2] == ["orders", "briefing"]
    orders_tab = app.tabs.children[0]
    assert orders_tab.children[0] is app.parts["coach"] and orders_tab.children[1] is app.orders
    assert "Your turn" in app.parts["coach"].html.value
    app.show_tab("briefing")
    assert isinstance(app.parts["briefing"], Briefing)
    assert "Take Kinmen (0506)" in app.parts["briefing"].html.value  # Red's own briefing
    app.switch("blue")
    assert "Take Kinmen (0506)" not in app.parts["briefing"].html.value
    assert "Hold Kinmen (0506)" in app.parts["briefing"].html.value
    app.close()


def test_the_coach_alone_teaches_the_tutorials_first_turn() -> None:
    """A first-time student, without notebook 00: at every step of turn 1 the acting seat's
    coach names the unit and the hex (or target) of the order the scenario expects, and says
    Done when there is nothing to order. Playing exactly what it says ends the turn."""
    from tests.scenario.test_bundled_scenarios import briefing_orders

    game = owsnb.load("tutorial", seed=1, save=False)
    script = [Order.parse(t) for t in briefing_orders("tutorial")]
    said = []
    while game.clock.turn == 1:
        acting = game.clock.acting
        side = acting[0] if acting else UMPIRE
        legal = game.legal_orders(side)
        lines = coach_lines(game.ruleset, game.view(side), side, side, legal, True)
        text = " ".join(t for _, t in lines)
        said.append(text)
        todo = [o for o in script if o.side == side and o.verb in legal.verbs]
        if todo:
            o = todo[0]
            for value in re.findall(r"[A-Z]-[A-Z0-9]+(?:-[A-Z0-9]+)?|\b\d{4}\b", str(o)):
                if o.verb == "shields":
                    break  # answered when the strike comes: named with the strike's hint
                assert value in text, (str(o), text)
            game.submit(o)
            script.remove(o)
            continue
        assert "Done" in text or "Advance" in text, text
        game.submit(f"{side}: done" if acting else "umpire: advance")
    assert not script, f"the coach never came to {script}"
    assert any("amphibious-assault" in t and "R-CAB-1" in t for t in said)


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_coach_phrases_every_order_of_the_first_step(games, name) -> None:
    """Every verb the acting side may use at the start has a phrase saying how, with the mouse
    (the rule set's, or one made from the order's parameters) and a step line with its rule."""
    game = games[name]
    acting = game.clock.acting
    side = acting[0] if acting else UMPIRE
    legal = game.legal_orders(side)
    lines = coach_lines(game.ruleset, game.view(side), side, side, legal, True)
    assert lines[0][0] == "step" and f"step {game.clock.step}" in lines[0][1]
    for spec in legal:
        phrase = verb_phrase(game.ruleset, spec.verb, game.clock.step)
        assert "Submit" in phrase or spec.verb in ("done", "advance"), (spec.verb, phrase)

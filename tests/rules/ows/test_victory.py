"""12.1 (Assessment Phase): "provides an opportunity for an instructor or game facilitator to
discuss with players any key insights or learning points that emerged during the game turn."

The series leaves victory to each scenario; owsnb writes a scenario's conditions as a score sheet
(``rules.victory``, :mod:`owsnb.rules.ows.victory`) so the table shows how the game stands — to
each side as far as it knows, to the umpire in truth.
"""

from __future__ import annotations

import pytest

import owsnb
from owsnb.kernel.data import FrozenDict
from owsnb.kernel.view import side_view
from owsnb.rules.ows import victory
from owsnb.scenario import load_scenario
from owsnb.scenario.loader import build_state


@pytest.fixture(scope="module")
def tutorial():
    return owsnb.load("tutorial", seed=1, save=False)


def _with(state, **changes):
    """*state* with units changed: ``{id: {"hex": label, "steps": n}}`` (``None`` removes)."""
    units = dict(state.units)
    for uid, ch in changes.items():
        if ch is None:
            units.pop(uid)
            continue
        u = units[uid]
        if "hex" in ch:
            u = u.evolve(hex=state.map.hex(ch["hex"]), box=None)
        if "steps" in ch:
            u = u.evolve(steps=ch["steps"])
        if "seen_by" in ch:
            u = u.evolve(seen_by=ch["seen_by"])
        units[uid] = u
    return state.evolve(units=FrozenDict(units))


def _standing(game, state, side="umpire", over=False):
    return victory.standing(side_view(state, side, game.ruleset), is_over=over)


def test_12_1_tutorial_blue_wins_while_kinmen_holds(tutorial) -> None:
    """The tutorial's sheet: Red needs Kinmen (0506); until it holds it, Blue is winning."""
    st = _standing(tutorial, tutorial.state)
    assert st["leader"] == "blue" and st["scores"] == {"blue": 0, "red": 0}
    assert st["text"].startswith("Blue is winning (Red needs to lead by 1 point to win)")
    assert "judged at the end of turn 2" in st["text"]


def test_12_1_tutorial_red_holds_kinmen_alone_and_leads(tutorial) -> None:
    """A Red ground unit in Kinmen with no Blue ground unit left there: Red scores Kinmen."""
    s = _with(tutorial.state, **{"B-KMN-1": None, "R-CAB-1": {"hex": "0506"}})
    st = _standing(tutorial, s)
    assert st["leader"] == "red" and st["scores"]["red"] == 1
    assert st["rows"] == [{"side": "red", "what": "holds Kinmen (0506)", "points": 1}]
    final = _standing(tutorial, s, over=True)
    assert final["final"] and final["text"].startswith("Red wins")


def test_12_1_contested_kinmen_scores_nobody(tutorial) -> None:
    """Both sides' ground units in Kinmen: nobody holds it (the assault goes on)."""
    s = _with(tutorial.state, **{"R-CAB-1": {"hex": "0506"}})
    assert victory.holder(side_view(s, "umpire", tutorial.ruleset), "0506") is None
    assert _standing(tutorial, s)["scores"]["red"] == 0


def test_12_1_costlier_landing_is_a_draw(tutorial) -> None:
    """Red holds Kinmen but has lost more steps than Blue: a draw (the scenario's text)."""
    s = _with(
        tutorial.state,
        **{"B-KMN-1": None, "R-CAB-1": {"hex": "0506"}, "R-052D-1": {"steps": 0}},
    )
    st = _standing(tutorial, s)
    assert st["leader"] is None and "draw" in st["text"] and st["lost"]["red"] == 2


def test_12_1_a_side_counts_only_the_enemy_losses_it_has_seen() -> None:
    """Baltic: 1 point per 3 enemy steps destroyed. Red's destroyed units Blue never detected
    are not in Blue's tally; the umpire's tally has them."""
    game = owsnb.load("baltic-ground", seed=1, save=False)
    reds = [u for u in game.state.units.values() if u.side == "red" and u.max_steps >= 3]
    unseen = next(
        u for u in reds if "blue" not in u.seen_by and u.id not in game.view("blue").units
    )
    s = _with(game.state, **{unseen.id: {"steps": 0}})
    lost = unseen.max_steps
    ump = _standing(game, s)
    blue = _standing(game, s, side="blue")
    assert any("Red steps destroyed" in r["what"] for r in ump["rows"]) == (lost >= 3)
    assert not any("Red steps destroyed" in r["what"] for r in blue["rows"])
    assert "as far as you know" in blue["text"] and "as far as you know" not in ump["text"]


def test_12_1_western_pacific_first_matching_loss_rule_counts() -> None:
    """A carrier mission-killed scores 5 to Red (not also 1 per ship step: "every other")."""
    game = owsnb.load("western-pacific", seed=1, save=False)
    cvn = next(u for u in game.state.units.values() if u.data.get("subtype") == "cvn")
    st = _standing(game, _with(game.state, **{cvn.id: {"steps": 0}}))
    carrier = [r for r in st["rows"] if "carriers" in r["what"]]
    assert carrier == [{"side": "red", "what": "Blue carriers mission-killed: 1", "points": 5}]
    assert not any("other Blue ship steps" in r["what"] for r in st["rows"])


def test_12_1_a_bad_score_sheet_is_refused_with_every_problem() -> None:
    scn = load_scenario("tutorial")
    spec = scn.spec.model_dump(by_alias=True, exclude_none=True)
    spec["rules"]["victory"] = {
        "objectives": [{"hex": "9999", "points": {"green": 1}}],
        "otherwise": "nobody",
    }
    with pytest.raises(owsnb.ScenarioError) as err:
        build_state(load_scenario(spec, base=scn.path.parent), 1)
    text = str(err.value)
    assert "no hex '9999'" in text and "no side 'green'" in text and "no side 'nobody'" in text

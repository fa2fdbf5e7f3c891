"""The Game handle: submit, refusals that change nothing, stale ids, undo, step_to, fork, views,
annotations and subscriptions — played with the skirmish test rule set."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.kernel import HistoryError, IllegalOrderError, NotYourTurnError, Order, StaleStateError
from owsnb.kernel.state import UMPIRE


def test_load_places_units_and_clock(game):
    assert game.unit("B-INF-1").hex == game.hex("0203")
    assert game.state.map.terrain(game.hex("0505")) == "urban"
    assert game.state.map.terrain(game.hex("0303")) == "forest"
    assert game.state.map.info(game.hex("0505")).features["city"]["name"] == "Wesel"
    assert game.state.map.edge(game.hex("0601"), game.hex("0602"))["river"] == {"name": ""}
    assert str(game.clock) == "Turn 1 · Phase 1 Movement · Blue acts"
    assert game.state_id == 0 and game.seq == 0


def test_submit_commits_events_and_moves(game):
    sub = game.submit("blue: move B-ARM-1 0404")
    assert game.unit("B-ARM-1").hex == game.hex("0404")
    assert "moved" in game.unit("B-ARM-1").markers
    assert [e.kind for e in sub.events] == ["unit.move", "unit.set"]
    assert sub.events[0].rule == "S2" and sub.state_id == game.state_id == 1


def _snapshot(game):
    return game.state, game.seq, game.state_id, game.events


@pytest.mark.parametrize(
    "order, cls, code",
    [
        ("red: move R-ARM-1 0704", NotYourTurnError, "not-your-turn"),
        ("blue: fire B-ARM-1 R-ARM-1", IllegalOrderError, "wrong-step"),
        ("blue: move R-ARM-1 0704", IllegalOrderError, "not-your-unit"),
        ("blue: move B-INF-1 0808", IllegalOrderError, "out-of-reach"),
        ("blue: move B-INF-1 0909", IllegalOrderError, "bad-hex"),
        ("blue: move B-INF-1 09x9", IllegalOrderError, "bad-hex"),
        ("blue: fly B-INF-1", IllegalOrderError, "unknown-verb"),
        ("green: done", IllegalOrderError, "unknown-side"),
        ("blue: advance", NotYourTurnError, "not-your-turn"),
        ("blue: move B-INF-1", IllegalOrderError, "bad-arguments"),
    ],
)
def test_refusals_name_the_rule_and_change_nothing(game, order, cls, code):
    before = _snapshot(game)
    with pytest.raises(cls) as err:
        game.submit(order)
    assert err.value.code == code
    assert _snapshot(game) == before


def test_refusal_cites_paragraph(game):
    with pytest.raises(IllegalOrderError) as err:
        game.submit("blue: move B-INF-1 0808")
    assert err.value.rule == "S2" and str(err.value).startswith("[S2] ")


def test_stale_state_id_is_refused(game):
    sid = game.state_id
    game.submit("blue: move B-ARM-1 0404")
    with pytest.raises(StaleStateError):
        game.submit("blue: move B-REC-1 0301", state_id=sid)
    game.submit("blue: move B-REC-1 0301", state_id=game.state_id)


def test_undo_restores_state_and_dice(game):
    start = game.state
    game.submit("blue: move B-ARM-1 0404")
    game.undo()
    assert game.state == start and game.seq == 0
    assert game.state_id == 2  # monotonic: commit + undo
    with pytest.raises(HistoryError):
        game.undo()


def _to_fire_step(game):
    game.submit("blue: move B-ARM-1 0503")
    game.submit("blue: done")
    game.submit("red: move R-ARM-1 0603")
    game.submit("red: done")
    game.submit("blue: done")
    game.submit("red: done")  # end of turn: adjacent units detect each other
    for side in ("blue", "red"):
        game.submit(f"{side}: done")
    assert game.clock.step == "2"


def test_undo_then_same_order_rolls_the_same(game):
    _to_fire_step(game)
    first = game.submit("blue: fire B-ARM-1 R-ARM-1").result["roll"]
    game.undo()
    again = game.submit("blue: fire B-ARM-1 R-ARM-1").result["roll"]
    assert first == again


def test_views_hide_undetected_enemies_and_secrets(game):
    blue = game.view("blue")
    assert {u.side for u in blue.units.values()} == {"blue"}
    assert not blue.secret
    with pytest.raises(KeyError):
        blue.unit("R-ARM-1")
    _to_fire_step(game)
    assert "R-ARM-1" in game.view("blue").units  # adjacent at the end of turn 1 -> detected
    assert "R-INF-1" not in game.view("blue").units
    umpire = game.view(UMPIRE)
    assert len(umpire.units) == len(game.units)
    # the authority's salt and the dice seed stay in the truth: no view, not even the umpire's
    assert game.state.secret["salt"] and "seed" not in game.state.secret
    assert "salt" not in umpire.secret and "seed" not in umpire.secret
    assert all(e.kind != "rng" or not e.data for e in umpire.events)


def test_roll_events_visible_as_tagged(game):
    _to_fire_step(game)
    game.submit("blue: fire B-ARM-1 R-ARM-1")
    rolls_red = game.log("red", ["die"])
    assert len(rolls_red) == 1 and rolls_red[0].data["actor"] == "blue"
    assert rolls_red[0].rule == "S3"


def test_step_to_and_fork(game):
    _to_fire_step(game)
    n = game.seq
    early = game.step_to(2)
    assert game.state is not None and not game.at_head and game.cursor == 2
    assert early.units["B-ARM-1"].hex == game.hex("0503")
    with pytest.raises(HistoryError):
        game.submit("blue: done")
    branch = game.fork()
    assert branch.seq == 2 and branch.state == early
    game.step_to(n)
    assert game.at_head
    branch.submit("blue: move B-INF-1 0303")
    assert game.unit("B-INF-1").hex == game.hex("0203")  # the original is untouched


def test_annotate_and_subscribe(game):
    seen = []
    unsubscribe = game.subscribe(lambda ch: seen.append(ch.kind))
    game.submit("blue: move B-ARM-1 0404")
    a = game.annotate(
        "Armour pushes into the forest", hex="0404", unit="B-ARM-1", author="instructor"
    )
    game.undo()
    assert seen == ["commit", "annotate", "undo"]
    assert a.seq == 2 and a.hex == game.hex("0404") and a.turn == 1
    assert game.annotations == [a]  # commentary survives undo
    unsubscribe()
    game.submit("blue: done")
    assert seen == ["commit", "annotate", "undo"]
    with pytest.raises(ValueError):
        game.annotate("   ")


def test_broken_subscriber_does_not_break_the_game(game):
    def boom(change):
        raise RuntimeError("display crashed")

    game.subscribe(boom)
    with pytest.warns(RuntimeWarning, match="display crashed"):
        game.submit("blue: done")
    assert game.clock.acting == ("red",)


def test_legal_orders_offer_what_the_step_allows(game):
    legal = game.legal_orders("blue")
    assert set(legal.verbs) == {"done", "move"}
    assert "blue: move B-ARM-1 0404" in legal
    assert "blue: move B-ARM-1 0909" not in legal
    assert game.legal_orders("red").verbs == []
    assert game.legal_orders("umpire").verbs == ["advance"]


def test_preview_is_exact_and_uses_the_ordering_sides_view(game):
    _to_fire_step(game)
    p = game.preview("blue: fire B-ARM-1 R-ARM-1")  # d8 vs defence 5 -> 4/8
    assert p[1] == owsnb.Distribution.die(8).at_least(5)
    with pytest.raises(IllegalOrderError) as err:  # red cannot preview a unit it has not detected
        game.preview("red: fire R-ARM-1 B-INF-1")
    with pytest.raises(
        IllegalOrderError
    ) as none:  # ... and is told what a unit that is not there gets
        game.preview("red: fire R-ARM-1 B-NONE-1")
    assert err.value.code == none.value.code == "target-not-detected"
    assert err.value.rule == "S3" and str(err.value) == str(none.value).replace(
        "B-NONE-1", "B-INF-1"
    )


def test_umpire_advance_skips_a_step(game):
    game.submit("umpire: advance")
    assert game.clock.phase == "2" and set(game.clock.acting) == {"blue", "red"}


def test_game_over_refuses_orders(game):
    """A finished game (the skirmish ends after its 6 turns) refuses every order — a side's,
    its ``done``, the umpire's ``advance`` — with code ``game-over``, changes nothing and
    offers no orders."""
    while not game.is_over():
        game.submit(f"{game.clock.acting[0]}: done" if game.clock.acting else "umpire: advance")
    assert game.clock.turn == 7
    before = _snapshot(game)
    for order in ("blue: move B-INF-1 0303", "red: done", "blue: done", "umpire: advance"):
        with pytest.raises(IllegalOrderError) as err:
            game.submit(order)
        assert err.value.code == "game-over", order
        assert _snapshot(game) == before
    assert not game.legal_orders("blue") and not game.legal_orders("red")


def test_order_objects_and_text_are_equivalent(game):
    a = game.submit(Order("blue", "move", ["B-ARM-1", "0404"]))
    game.undo()
    b = game.submit("blue: move B-ARM-1 0404")
    assert [e.data for e in a.events] == [e.data for e in b.events]


@pytest.mark.parametrize("verb", ["done", "advance", "move"])
def test_a_rule_set_may_not_take_the_kernels_verbs_or_declare_a_verb_twice(verb):
    """``done`` and ``advance`` are every rule set's own (rule sets test ``order.verb`` against
    them), so an order type of a rule set named so would be taken for them: refused when the rule
    set is made, as is a second handler of one verb. Refining the kernel's own type is allowed."""
    from owsnb.kernel.orders import OrderType
    from owsnb.kernel.ruleset import ADVANCE, DONE, OrderHandler, RuleSet

    class H(OrderHandler):
        type = OrderType(verb, ())

    handlers = [H(), H()] if verb == "move" else [H()]
    with pytest.raises(ValueError, match=repr(verb)):
        RuleSet(handlers)

    class Refined(OrderHandler):
        type = {"done": DONE, "advance": ADVANCE, "move": H.type}[verb]

    assert isinstance(RuleSet([Refined()]).handler(verb), Refined)


def test_no_view_carries_the_scenarios_path_on_the_authoritys_disk(game):
    """Issue 18: every side's view carried the server's absolute ``scenario.file``."""
    path = game.state.scenario["file"]
    assert path.startswith("/") or ":" in path
    for side in (*game.sides, UMPIRE):
        v = game.view(side)
        assert "file" not in v.scenario and v.scenario["source"] == "skirmish.yaml"
        assert path not in repr(dict(v.scenario))


def test_umpire_advance_to_an_unknown_step_is_refused_and_changes_nothing(game):
    before = (game.state_id, game.clock)
    with pytest.raises(IllegalOrderError) as err:
        game.submit("umpire: advance 9.Z")
    assert err.value.code == "bad-step" and "9.Z" in str(err.value)
    assert (game.state_id, game.clock) == before

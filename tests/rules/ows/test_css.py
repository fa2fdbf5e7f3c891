"""CSS (10.13, advanced) and action points and orders (10.14, advanced): each test names its paragraph;
the worked examples of 10.13.2.1 and 10.13.2.2 are here."""

import pytest

from owsnb.kernel.errors import IllegalOrderError
from owsnb.rules.ows import css

from .conftest import at, run
from .ground_kit import blank, gload


def U(i, t, side, hexlab, markers=(), **data):
    d = {"id": i, "type": t, "side": side, "hex": hexlab}
    if markers:
        d["markers"] = list(markers)
    if data:
        d["data"] = data
    return d


@pytest.mark.parametrize(
    "nation, kind, fp",
    [
        ("RU", "mech", 1),
        ("PRC", "tank", 1),
        ("US", "stryker", 1),
        ("US", "heavy-armour", 2),
        ("US", "helo", 1),
        ("PRC", "fighter", 2),
        ("US", "light", 0),
    ],
)
def test_10_13_2_1_one_day_fuel_rus_prc_mech_nato_stryker_nato_hbct_helo_fighter(nation, kind, fp):
    assert css.fuel_needed_for(nation, kind) == fp


def test_10_13_2_1_fuel_is_paid_once_a_turn_when_the_formation_moves_at_all():
    g = at(
        blank(
            [
                U("CSS", "css-bn", "blue", "0303"),
                U("BDE", "mech-bde", "blue", "0404", nation="RU"),
                U("LI", "light-bn", "blue", "0404"),
            ],
            options={"css": True},
        ),
        "6.C.3",
    )
    g.submit("blue: move BDE 0505")
    assert (
        g.state.units["CSS"].data["fuel_points"] == 5
        and g.state.units["BDE"].data["fuel_paid"] == 1
    )
    g.submit("blue: move LI 0405")  # light infantry needs no fuel
    assert g.state.units["CSS"].data["fuel_points"] == 5


def test_10_13_2_4_no_cSS_unit_with_fuel_in_radius_means_no_move():
    far = at(
        blank(
            [
                U("CSS", "css-bn", "blue", "0101", css_radius=1),
                U("BDE", "mech-bde", "blue", "0606", nation="RU"),
            ],
            options={"css": True},
        ),
        "6.C.3",
    )
    with pytest.raises(IllegalOrderError) as e:
        far.check("blue: move BDE 0707")
    assert e.value.rule == "10.13.2.1"
    dry = at(
        blank(
            [
                U("CSS", "css-bn", "blue", "0505", fuel_points=0),
                U("BDE", "mech-bde", "blue", "0606", nation="RU"),
            ],
            options={"css": True},
        ),
        "6.C.3",
    )
    with pytest.raises(IllegalOrderError):
        dry.check("blue: move BDE 0707")
    off = at(blank([U("BDE", "mech-bde", "blue", "0606", nation="RU")]), "6.C.3")
    off.check("blue: move BDE 0707")  # without the advanced rule nothing is charged


def test_10_13_2_2_a_munitions_counter_used_twice_flips_to_low_ammo_then_is_removed():
    assert css.use_munition(["full"]) == ["low"]
    assert css.use_munition(["low"]) == []
    with pytest.raises(ValueError):
        css.use_munition([])
    assert css.munitions_left(["full", "low"]) == 3


def test_10_13_2_2_artillery_fire_missions_use_munitions_from_the_css_in_radius():
    g = at(
        blank(
            [
                U("CSS", "css-bn", "blue", "0303", munitions=["full"]),
                U("ART", "artillery-bn", "blue", "0404"),
                U("R", "mech-bde", "red", "0505"),
            ],
            options={"css": True},
        ),
        "6.C.3",
    )
    g2 = g.__class__(
        g.ruleset,
        g.state.evolve(units={**g.state.units, "R": g.state.units["R"].evolve(seen_by={"blue"})}),
    )
    s, res, _ = run(
        g2, "blue: prep-fire R with=ART", [1, 1]
    )  # two fire missions: the counter is used up
    assert s.units["CSS"].data["munitions"] == ()
    g3 = g2.__class__(
        g2.ruleset,
        g2.state.evolve(
            units={
                **g2.state.units,
                "CSS": g2.state.units["CSS"].evolve(data={"munitions": ["low"]}),
            }
        ),
    )
    with pytest.raises(IllegalOrderError) as e:
        g3.check("blue: prep-fire R with=ART")
    assert e.value.rule == "10.13.2.2"


def test_10_13_2_4_tactical_css_is_refilled_from_a_depot_in_regeneration():
    g = blank(
        [
            U("DEP", "css-depot", "blue", "0101"),
            U("CSS", "css-bn", "blue", "0303", fuel_points=1, munitions=["low"]),
        ],
        options={"css": True},
        turns=3,
    )
    g.submit("umpire: advance 7.I")
    c, d = g.state.units["CSS"], g.state.units["DEP"]
    assert c.data["fuel_points"] == 6 and list(c.data["munitions"]) == ["low", "full", "full"]
    assert d.data["fuel_points"] == 25 and len(d.data["munitions"]) == 4


# -- 10.14 action points and orders ---------------------------------------------------------------------------
def test_10_14_only_units_with_orders_or_reserve_act_and_orders_are_limited_by_action_points():
    g = at(
        gload(
            options={"action_points": True},
            tables={"ground": {"action_points": {"blue": 1}}},
            units={"1-REC": {"markers": ["reserve"], "data": {"hq": ""}}},
        ),
        "6.C.2",
    )
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: task-organize orders=HQ-1D,2SBCT")
    assert e.value.rule == "10.14.2"
    g.submit("blue: task-organize orders=HQ-1D")
    assert "HQ-1D" not in str(g.view("red").sides["blue"].private)  # secret in double-blind play
    g.submit("umpire: advance 6.C.3")
    g.check("blue: move 2SBCT 0606")  # under the HQ with Orders
    g.check("blue: move 1-REC 0607")  # Reserve (half MP)
    with pytest.raises(IllegalOrderError) as e:
        g.check("blue: move HET-1 0506")
    assert e.value.rule == "10.14"


def test_10_14_1_action_points_come_from_the_scenario():
    from owsnb.rules.ows import orders

    g = gload(
        options={"action_points": True},
        tables={"ground": {"action_points": {"blue": 3, "default": 1}, "feints": 2}},
    )
    assert orders.budget(g.state, "blue") == 5 and orders.budget(g.state, "red") == 3
    off = at(gload(), "6.C.2")
    with pytest.raises(IllegalOrderError) as e:
        off.check("blue: task-organize orders=HQ-1D")
    assert e.value.rule == "10.14"

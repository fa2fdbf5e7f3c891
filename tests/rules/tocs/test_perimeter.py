"""The double-blind perimeter: what is secret, what is announced (L2, L9, L18-L19, L226-L247, L266)."""

from __future__ import annotations

import pytest

import owsnb
from owsnb.testing import find_leaks, hidden_tokens

from .conftest import begin, board, lab, set_owner, set_unit, submit


def _visible_to(game, side, sub):
    return [e for e in sub.events if e.visible(side) and side != "umpire"]


def test_l2_every_hex_has_one_owner_known_to_both_sides():
    g = board()
    a, b = g.view("allied"), g.view("german")
    own_a = {h: i.facts["owner"] for h, i in a.map.hexes.items()}
    own_b = {h: i.facts["owner"] for h, i in b.map.hexes.items()}
    assert own_a == own_b and set(own_a.values()) == {"allied", "german"}


def test_l9_enemy_units_are_never_shown():
    g = board()
    assert {u.side for u in g.view("allied").units.values()} == {"allied"}
    assert {u.side for u in g.view("german").units.values()} == {"german"}


def test_l231_move_inside_own_perimeter_is_secret():
    g = board()
    begin(g)
    submit(g, "allied: activate A-1")
    sub = submit(g, "allied: move A-1 0402")
    seen = _visible_to(g, "german", sub)
    # the opponent learns nothing of the move (OP spent is disclosed at activation, L786)
    assert seen == []
    assert lab(g, "A-1") == "0402"


def test_l247_entering_an_enemy_hex_is_announced_by_hex_not_unit():
    g = board()
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: move A-2 0505")
    sub = submit(g, "allied: move A-2 0605")
    seen = _visible_to(g, "german", sub)
    texts = [e.data.get("text", "") for e in seen if e.kind == "note"]
    assert any("0605" in t for t in texts)
    assert not find_leaks([dict(e.data) for e in seen], {"A-2", "A-HQ", "A-1"})
    assert g.view("german").map.hexes[g.hex("0605")].facts["owner"] == "allied"


def test_e7_l246_entering_an_engagement_hex_is_secret_even_if_enemy_owned():
    g = board()
    from owsnb.kernel.events import hex_set

    from .conftest import poke

    poke(g, hex_set(g.hex("0605"), {"engaged": True}))
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: move A-2 0505")
    sub = submit(g, "allied: move A-2 0605")
    assert _visible_to(g, "german", sub) == []
    assert (
        lab(g, "A-2") == "0605" and g.state.map.hexes[g.hex("0605")].facts["owner"] == "german"
    )  # L235


def test_l67_battle_marker_shows_neither_direction_nor_units():
    g = board()
    set_owner(g, "0706", "allied")
    set_owner(g, "0606", "allied")
    set_owner(g, "0605", "allied")
    set_unit(g, "A-HQ", hex=g.hex("0505"))
    set_unit(g, "A-1", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-1")
    sub = submit(g, "allied: attack A-1 0806 kind=hasty")
    seen = _visible_to(g, "german", sub)
    texts = " ".join(str(dict(e.data)) for e in seen)
    assert "0806" in texts and "0706" not in texts and "A-1" not in texts


def test_l9_destroyed_units_are_revealed():
    g = board()
    from owsnb.rules.tocs.combat import destroy
    from owsnb.rules.tocs.emit import Emitter

    from .conftest import poke

    em = Emitter(g.state)
    destroy(em, "G-1", rule="L728")
    poke(g, *em.events)
    v = g.view("allied")
    assert "G-1" in v.units and v.units["G-1"].box == "dead"
    assert "G-1" in g.state.sides["allied"].private["killed"]


def test_e3_omg_n_supply_base_hidden_from_aerial_recon_revealed_by_ground_recon():
    g = owsnb.load("tocs-nijmegen", seed=3, save=False)
    known = g.view("allied").sides["allied"].private["facilities_known"]
    assert not any(f["hex"] == "0903" for f in known)
    german_known = g.view("german").sides["german"].private["facilities_known"]
    assert any(f["hex"] == "0903" for f in german_known)
    # the base never appears in the Allied payloads (map features, public facts)
    v = g.view("allied")
    assert "supply-base" not in str(dict(v.public))
    assert not any("supply" in str(dict(i.features)) for i in v.map.hexes.values())
    # aerial reconnaissance over the city does not reveal it (L825)
    from .conftest import set_data

    set_data(g, "A-P47", offboard=False)
    submit(g, "allied: begin", [1, 5])
    submit(g, "allied: fly A-P47 recon 0903")
    assert not any(f["hex"] == "0903" for f in g.state.sides["allied"].private["facilities_known"])
    notes = [e.data["text"] for e in g.view("german").events if e.kind == "note"]
    assert any(
        t.startswith("Aerial reconnaissance over 0903: ") and "occupied by Infantry" in t
        for t in notes
    )


def test_e3_wwii_layer_supply_bases_are_public():
    g = board(
        rules={"facilities": [{"hex": "1005", "type": "supply-base", "side": "german", "sp": 4}]}
    )
    assert any(f["hex"] == "1005" for f in g.state.sides["allied"].private["facilities_known"])


def test_l269_ground_recon_reveals_a_hidden_facility():
    g = board(
        options={"module": "omg-n"},
        rules={"facilities": [{"hex": "0605", "type": "supply-base", "side": "german", "sp": 4}]},
    )
    assert not any(f["hex"] == "0605" for f in g.state.sides["allied"].private["facilities_known"])
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0605")
    assert any(f["hex"] == "0605" for f in g.state.sides["allied"].private["facilities_known"])


def test_l268_recon_into_your_own_perimeter_is_refused_and_changes_nothing():
    import pytest

    from owsnb.kernel import IllegalOrderError

    g = board()
    begin(g)
    submit(g, "allied: activate A-2")
    before = g.state
    with pytest.raises(IllegalOrderError) as e:
        g.submit("allied: recon A-2 0505")
    assert e.value.code == "own-hex" and e.value.rule == "L268" and g.state is before


def test_l272_recon_chain_results():
    g = board()
    set_unit(g, "A-2", hex=g.hex("0505"))
    begin(g)
    submit(g, "allied: activate A-2")
    submit(g, "allied: recon A-2 0605")
    assert g.state.map.hexes[g.hex("0605")].facts["owner"] == "allied"  # empty, no EZOC
    submit(g, "allied: recon A-2 0706")  # in G-1's EZOC: stays German
    assert g.state.map.hexes[g.hex("0706")].facts["owner"] == "german"
    submit(g, "allied: recon A-2 0806")  # occupied: the chain ends
    notes = [e.data["text"] for e in g.view("german").events if e.kind == "note"]
    assert "Reconnaissance into 0806: enemy occupied" in notes
    assert g.unit("A-2").get("recon_last") is None
    assert lab(g, "A-2") == "0505"  # recon never moves the unit (L271)


def test_l277_probe_reports_types_not_strength_or_identity():
    g = board()
    set_owner(g, "0706", "allied")
    set_unit(g, "A-HQ", hex=g.hex("0505"))
    set_owner(g, "0605", "allied")
    set_owner(g, "0606", "allied")
    set_unit(g, "A-2", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-2")
    sub = submit(g, "allied: probe A-2 0806")
    pub = [e for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert pub[0].data["text"] == "Probe into 0806: occupied by Infantry; in EZOC" or pub[0].data[
        "types"
    ] == ("Infantry",)
    assert not find_leaks([dict(e.data) for e in pub], {"G-1", "G-HQ"})


def test_views_never_leak_hidden_ids_after_a_battle():
    g = board()
    set_owner(g, "0706", "allied")
    set_unit(g, "A-1", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-1")
    submit(g, "allied: attack A-1 0806 kind=hasty")
    submit(g, "allied: done")
    for side in ("allied", "german"):
        v = g.view(side)
        tokens = hidden_tokens(g.state, side, g.ruleset)
        payload = {
            "events": [dict(e.data) for e in v.events],
            "public": dict(v.public),
            "sides": {k: dict(x.private) for k, x in v.sides.items()},
            "dash": g.ruleset.presentation.dashboard(v),
        }
        assert not find_leaks(payload, tokens), side


def test_l9_a_destroyed_unit_shows_its_counter_not_its_chain_of_command():
    from owsnb.rules.tocs.combat import destroy
    from owsnb.rules.tocs.emit import Emitter

    from .conftest import poke

    g = board()
    em = Emitter(g.state)
    destroy(em, "G-1", rule="L728")
    poke(g, *em.events)
    dead = g.view("allied").units["G-1"]
    assert dead.box == "dead" and "parent" not in dead.data  # its HQ (G-HQ) stays hidden
    assert not find_leaks([dict(dead.data)], hidden_tokens(g.state, "allied", g.ruleset))


@pytest.mark.parametrize(
    "option, text",
    [
        ("types", "Probe into 0806: occupied by Infantry"),
        ("size", "Probe into 0806: occupied by Infantry (2 units)"),
    ],
)
def test_l276_v_l278_probe_reveals_option(option, text):
    from owsnb.kernel.events import unit_add

    from .conftest import poke

    g = board(options={"probe_reveals": option})
    poke(g, unit_add(g.unit("G-1").evolve(id="G-2"), visible_to="german"))
    for h in ("0706", "0605", "0606"):
        set_owner(g, h, "allied")
    set_unit(g, "A-2", hex=g.hex("0706"))
    begin(g)
    submit(g, "allied: activate A-2")
    sub = submit(g, "allied: probe A-2 0806")
    pub = [e for e in sub.events if e.kind == "note" and e.visible_to is None]
    assert pub[0].data["text"] == text
    assert ("units" in pub[0].data) is (option == "size")
    assert not find_leaks([dict(e.data) for e in pub], {"G-1", "G-2", "G-HQ"})

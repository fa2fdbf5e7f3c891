"""The bundled OWS scenarios and their unit catalogs.

Every bundled scenario validates, loads, places its units where the rules allow, and survives one
full turn of random legal orders (seeded) with the clock passing through every step and no side's
view naming a unit it has not detected. The catalogs are notional, documented, valid OWS payloads
and honour every counter example of the rule text (digest §13).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import time
from pathlib import Path

import pytest
import yaml

import owsnb
from owsnb.cli import main as owsnb_cli
from owsnb.kernel.data import iter_strings
from owsnb.rules.ows import units as ows_units
from owsnb.rules.ows.common import option
from owsnb.rules.ows.sequence import SEQUENCE
from owsnb.rules.ows.units import counter
from owsnb.scenario import Scenario, build_state, load_scenario
from owsnb.testing import find_leaks, hidden_tokens, random_playout

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
BUNDLED = ["tutorial", "western-pacific", "baltic-ground", "sandbox"]
PLAYED = ["tutorial", "western-pacific", "baltic-ground"]
CATALOGS = sorted(SCENARIOS.glob("catalogs/ows-*.yaml"))
WATER = ("deep-sea", "littoral")
ON_LAND = (
    "ground",
    "hq",
    "artillery",
    "air-defence",
    "engineer",
    "css",
    "asp",
    "air-base",
    "transport",
)
AIRFIELDS = ("airfield", "airstrip", "airbase")


@functools.cache
def _parsed(name: str) -> dict:
    return yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))


def raw(name: str) -> dict:
    """The scenario file as data (a fresh copy)."""
    return copy.deepcopy(_parsed(name))


@functools.cache
def scenario(name: str) -> Scenario:
    """A bundled scenario read and validated once (a game built from it never changes it)."""
    return load_scenario(name)


def load(name: str, seed: int = 1, **top) -> owsnb.Game:
    """A fresh in-memory game of a bundled scenario, top-level keys (``turns=1``) overridden."""
    scn = scenario(name)
    if top:
        scn = dataclasses.replace(scn, spec=scn.spec.model_copy(update=top))
    return owsnb.load(scn, seed=seed, save=False)


@pytest.fixture(scope="module")
def states() -> dict:
    """The initial state of every bundled scenario (built once; states are immutable)."""
    return {name: build_state(scenario(name), seed=1)[0] for name in BUNDLED}


def types_of(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["types"]


def all_types() -> dict:
    out = {}
    for p in CATALOGS:
        for k, t in types_of(p).items():
            out[f"{p.stem}:{k}"] = t
    return out


# -- validation and loading -----------------------------------------------------------------------
def test_owsnb_validate_passes_on_the_bundled_ows_scenarios(capsys) -> None:
    files = [
        str(SCENARIOS / f"{name}.yaml") for name in BUNDLED
    ]  # CI validates every file too (.ci/test.sh)
    assert owsnb_cli(["validate", *files]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    for name in BUNDLED:
        assert re.search(rf"ok\s+\S*{name}\.yaml: ows", out), out


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenario_loads_with_its_order_of_battle(name: str) -> None:
    t0 = time.perf_counter()
    game = owsnb.load(name, seed=5, save=False)
    seconds = time.perf_counter() - t0
    spec = raw(name)
    print(
        f"\n{name}: {len(game.state.map.hexes)} hexes, {len(game.state.units)} units, "
        f"loaded in {seconds:.2f} s"
    )
    assert seconds < 15
    assert game.state.ruleset == "ows" and len(game.state.units) == len(spec["units"])
    assert game.clock.turn == 1 and game.clock.step == "1.1"
    assert spec["briefing"].strip() and "pending" not in spec["briefing"].lower()
    assert spec["victory"] and spec["turns"] >= 1
    for side in ("blue", "red"):
        assert game.state.sides[side].public["space"]  # dashboards set up (2.1.3)


@pytest.mark.parametrize("name", PLAYED)
def test_every_hex_named_in_the_victory_conditions_is_on_the_map(name: str, states: dict) -> None:
    m = states[name].map
    labels = {i.label for i in m.hexes.values()}
    named = set(re.findall(r"\b\d{4}\b", str(raw(name)["victory"])))
    assert named and named <= labels


# -- placement: what the rules allow at the start -------------------------------------------------
@pytest.mark.parametrize("name", BUNDLED)
def test_units_start_where_the_rules_allow(name: str, states: dict) -> None:
    s = states[name]
    m = s.map
    bases: dict = {}
    for u in s.units.values():
        c = counter(u)
        if u.hex is None:
            if u.box == "aboard":  # 5.1.1.2: embarked on a ship of its side with room for it
                ship = next(x for x in s.units.values() if x.data.get("hold") == u.data["aboard"])
                assert ship.side == u.side and counter(ship).box_total("infantry") >= u.steps
            else:
                assert u.box == "base", (
                    f"{u.id} is off the map but neither in box 'base' nor aboard"
                )
            continue
        info = m.info(u.hex)
        field = next((info.features[k] for k in AIRFIELDS if k in info.features), None)
        if c.is_naval:  # 2.1.8, 2.1.9: at sea, or in one of its own side's ports (2.1.7.1)
            port = info.features.get("port")
            assert info.terrain in WATER or (port and port.get("owner") == u.side), (
                f"{u.id} is ashore at {info.label}"
            )
        elif c.category in ON_LAND and not (
            c.category == "air-base" and field
        ):  # reef airstrips stay at sea
            assert info.terrain not in WATER, f"{u.id} ({c.category}) is at sea at {info.label}"
        if c.category == "air-base":  # 6.5.5: an own airfield, never above its capacity
            assert field and field.get("owner") == u.side, (
                f"{u.id} is not at one of its side's airfields"
            )
            bases[u.hex] = bases.get(u.hex, 0) + 1
            assert bases[u.hex] <= int(field.get("capacity", 1)), (
                f"airfield {info.label} over capacity"
            )


@pytest.mark.parametrize("name", BUNDLED)
def test_air_missions_belong_to_a_base_or_carrier_of_their_side(name: str, states: dict) -> None:
    s = states[name]
    sorties: dict = {}
    for u in s.units.values():
        c = counter(u)
        if c.category == "sof":
            assert u.box == "base" or u.hex is not None
        if not c.is_air:
            continue
        base = s.units.get(c.base)
        assert base is not None and base.side == u.side, f"{u.id}: base {c.base!r}"
        if counter(base).category == "naval":  # 6.5.6: carrier-capable, one sortie per aircraft box
            assert c.carrier_capable, f"{u.id} is not carrier-capable but is based on {base.id}"
            if c.mission not in ("tanker", "aew"):
                sorties[base.id] = sorties.get(base.id, 0) + 1
                assert sorties[base.id] <= counter(base).box_total("aircraft"), (
                    f"{base.id} has too many missions"
                )
        else:
            assert counter(base).category == "air-base", (
                f"{u.id} is based on {base.id}, not a squadron base"
            )


@pytest.mark.parametrize("name", BUNDLED)
def test_no_unit_name_or_id_hides_inside_another(name: str) -> None:
    """A hidden unit's id or name inside a visible unit's text would read as a leak (and could be
    one): ids and names are distinct words."""
    units = raw(name)["units"]
    for a in units:
        for b in units:
            if a["id"] == b["id"]:
                continue
            assert a["id"] not in b["id"] and a["id"] not in b.get("name", "")
            if a.get("name") and a.get("name") != b.get("name"):
                assert a["name"] not in b.get("name", ""), (a["name"], b.get("name"))


# -- the catalogs ---------------------------------------------------------------------------------
def test_there_are_catalogs_for_both_sides_at_both_scales() -> None:
    stems = {p.stem for p in CATALOGS}
    assert {
        "ows-us-allied-200nm",
        "ows-prc-200nm",
        "ows-us-allied-20km",
        "ows-prc-20km",
        "ows-russia-20km",
    } <= stems


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_catalog_is_notional_documented_and_valid(path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert doc["ruleset"] == "ows" and doc["notional"] is True
    assert "NOTIONAL" in doc["notes"] and "hexes" in doc["notes"]
    kinds = set()
    for key, t in doc["types"].items():
        assert len(t.get("notes", "")) > 20, f"{key}: every value needs a note of its basis"
        assert t["category"] == t["data"]["category"], key
        data, problems = ows_units.validate(key, t["data"])
        assert problems == [], (key, problems)
        kinds.add(data["category"])
        for a in data[
            "attacks"
        ]:  # every missile has a speed class or is ballistic / hypersonic (9.9.4.1)
            if _is_missile(data["category"], a):
                assert set(a["flags"]) & SPEED, (
                    f"{key}: salvo {a['id']} needs subsonic, supersonic, H, HGV or xRBM"
                )
    assert kinds & {
        "naval",
        "air-mission",
        "ground",
        "sof",
        "hq",
        "asp",
        "air-defence",
        "artillery",
    }


SPEED = {"subsonic", "supersonic", "H", "HGV", "SRBM", "MRBM", "IRBM"}


def _is_missile(category: str, a: dict) -> bool:
    """A cruise or ballistic missile salvo (not air-to-air, a SAM, ASW, a torpedo, a gun or rocket,
    a short-range precision munition, or a SOF raid)."""
    flags = set(a["flags"])
    if (
        a["air_to_air"]
        or set(a["targets"]) <= {"air"}
        or set(a["targets"]) <= {"sub"}
        or "torpedo" in flags
    ):
        return False
    if category == "sof" or ("pgm" in flags and not flags & SPEED):
        return False
    return not (category == "artillery" and not flags)


def test_catalogs_cover_every_kind_of_force_of_both_sides() -> None:
    cats: dict = {}
    for key, t in all_types().items():
        side = "red" if any(x in key.split(":")[0] for x in ("prc", "russia")) else "blue"
        cats.setdefault(side, set()).add(t["data"]["category"])
    need = {
        "naval",
        "submarine",
        "air-mission",
        "air-base",
        "ground",
        "sof",
        "air-defence",
        "artillery",
        "hq",
        "asp",
        "engineer",
        "css",
    }
    assert need <= cats["blue"] and need <= cats["red"]


def _t(cat: str, key: str) -> dict:
    return types_of(SCENARIOS / "catalogs" / f"{cat}.yaml")[key]["data"]


def _v(cat: str, key: str) -> dict:
    return ows_units.validate(key, _t(cat, key))[0]


@pytest.mark.parametrize("cat", ["ows-us-allied-200nm"])
def test_2_2_2_8_ddg_flight_iia_sm6_is_grey_7_and_d12_range_1_h_bmd_in_one_pool(cat: str) -> None:
    d = _v(cat, "us-ddg-iia")
    sm6 = next(g for g in d["grey_shields"] if g["pool"] == "sm6")
    atk = next(a for a in d["attacks"] if a["pool"] == "sm6")
    assert (sm6["value"], sm6["bmd"], atk["die"], atk["range"], atk["flags"]) == (
        7,
        True,
        "d12",
        1,
        ["H"],
    )
    assert set(atk["targets"]) == {"air", "naval"} and sm6["count"] == atk["count"]


def test_6_5_9_3_and_6_5_9_4_maya_has_cec_and_an_air_defence_shield_7_range_1() -> None:
    d = _v("ows-us-allied-200nm", "jp-ddg-maya")
    assert d["cec"] and d["nation"] == "JP"
    assert any(g["value"] == 7 and g["range"] == 1 for g in d["grey_shields"])
    assert any(s["kind"] == "radar" and s["range"] == 1 for s in d["sensors"])
    assert _v("ows-us-allied-200nm", "us-e2d")["cec_provider"]


def test_6_5_7_f35a_is_stealthy_with_local_signature_8_everywhere() -> None:
    for key, t in all_types().items():
        if "f35a" in key:
            d = t["data"]
            assert d["stealth"] and d["signature"] == 8 and d["signature_type"] == "local", key


def test_6_6_every_sof_team_has_local_signature_8() -> None:
    sof = [(k, t["data"]) for k, t in all_types().items() if t["data"]["category"] == "sof"]
    assert len(sof) >= 5
    assert all(d["signature"] == 8 and d["signature_type"] == "local" for _, d in sof)


def test_9_9_4_1_subsonic_missiles_defend_5_and_supersonic_7_against_cap(states: dict) -> None:
    from owsnb.rules.ows.targeting import _cap_defense  # the rule set's own reading of 9.9.4.1

    seen = set()
    s = states["western-pacific"]
    for u in s.units.values():
        for a in counter(u).attacks:
            d = _cap_defense(s, a)
            if "subsonic" in a.flags:
                assert d == 5, (u.id, a.id)
            elif "supersonic" in a.flags:
                assert d == 7, (u.id, a.id)
            elif a.flags & {"H", "HGV", "SRBM", "MRBM", "IRBM"}:
                assert d is None, (u.id, a.id)
            seen.add(d)
    assert {5, 7, None} <= seen


def test_9_9_7_squadron_bases_asps_ports_airfields_and_railheads_defend_3(states: dict) -> None:
    for key, t in all_types().items():
        if t["data"]["category"] in ("air-base", "asp"):
            assert t["data"]["red_shield"] == 3, key
        if t["data"]["category"] == "air-base":
            assert t["steps"] == 2, key  # 2.2.3: a squadron base has two steps
    for name, s in states.items():
        for info in s.map.hexes.values():
            for kind, f in info.features.items():
                if kind in ("port", *AIRFIELDS, "railhead"):
                    assert int(f.get("shield", 3)) == 3, (name, info.label, kind)


def test_6_5_4_tankers_kc135_2_mq25_1_kc130j_1_kc46_unlimited() -> None:
    cat = "ows-us-allied-200nm"
    assert _t(cat, "us-kc135")["tanker"]["capacity"] == 2
    assert _t(cat, "us-mq25")["tanker"]["capacity"] == 1
    assert _t(cat, "us-kc130j")["tanker"]["capacity"] == 1
    assert _t(cat, "us-kc46")["tanker"]["radius"] is None
    assert _t("ows-us-allied-20km", "us-kc135")["tanker"]["capacity"] == 2


def test_6_5_1_1_fighters_carry_at_most_2_strike_salvos_and_bombers_6() -> None:
    for key, t in all_types().items():
        d = t["data"]
        if d["category"] != "air-mission" or not d.get("munitions_max"):
            continue
        assert d["munitions_max"] == (6 if d["aircraft"] == "bomber" else 2), key
        carried = sum(a["count"] for a in d.get("attacks", []) if not a.get("air_to_air"))
        assert carried <= d["munitions_max"], key


def test_9_9_ohio_ssgn_carries_18_salvos_and_an_asp_6() -> None:
    assert _t("ows-us-allied-200nm", "us-ssgn")["attacks"][0]["count"] == 18
    assert all(
        t["data"]["salvos"] == 6 for t in all_types().values() if t["data"]["category"] == "asp"
    )


def test_6_5_9_e3_senses_with_a_d12_out_to_3_hexes() -> None:
    assert _t("ows-us-allied-200nm", "us-e3")["sensors"] == [
        {"kind": "aew", "die": "d12", "range": 3}
    ]


def test_6_4_1_1_houbei_is_patrol_craft() -> None:
    for cat in ("ows-prc-200nm", "ows-prc-20km"):
        assert _t(cat, "prc-pg-022")["subtype"] == "patrol"


def test_every_catalog_counter_with_boxes_has_one_step_per_box() -> None:
    for key, t in all_types().items():
        boxes = t["data"].get("boxes")
        if boxes:
            assert len(boxes) == t["steps"], key  # 2.2.3: the white boxes are the steps


def test_10_15_9_1_3_quality_examples_are_in_the_catalogs() -> None:
    cat = "ows-us-allied-20km"
    assert _t(cat, "us-abct")["step_dice"] == ["d12", "d12", "d12"]
    assert _t("ows-russia-20km", "ru-tank-regiment")["step_dice"] == ["d10", "d10", "d8"]
    assert _t("ows-russia-20km", "ru-btg")["step_dice"] == ["d8"] and _t(
        "ows-prc-20km", "prc-marine-bn"
    )["step_dice"] == ["d8"]


def test_10_4_1_1_1_hq_proficiency_us_division_2_russia_and_china_4() -> None:
    assert _t("ows-us-allied-20km", "us-hq-div")["proficiency"] == 2
    assert _t("ows-russia-20km", "ru-hq-corps")["proficiency"] == 4
    assert _t("ows-prc-20km", "prc-hq-group-army")["proficiency"] == 4
    assert _t("ows-prc-200nm", "prc-hq-group-army")["proficiency"] == 4


# -- a full turn of random legal orders -----------------------------------------------------------
class ViewScan:
    """After every order, no side's view (its units, events, side records and public facts) names
    a unit that side has not detected — the check of ``random_playout`` (``find_leaks``: one
    substring pre-filter per hidden token over the view's joined text, fast for 250 units)."""

    def __init__(self) -> None:
        self.known: dict[str, set[str]] = {}
        self.scans = 0

    def __call__(self, game: owsnb.Game) -> None:
        s = game.state
        for side in s.sides:
            view = game.view(side)
            seen = self.known.setdefault(side, set())
            seen.update(view.units)
            tokens = (
                hidden_tokens(s, side, game.ruleset)
                - seen
                - {s.units[u].name for u in seen if u in s.units}
            )
            payload = {
                "units": [[u.id, u.name, u.kind, dict(u.data)] for u in view.units.values()],
                "events": [[e.kind, dict(e.data)] for e in view.events],
                "sides": {n: [dict(x.public), dict(x.private)] for n, x in view.sides.items()},
                "public": dict(view.public),
            }
            leaks = find_leaks(payload, tokens)
            assert not leaks, (
                f"{side}'s view names undetected units {leaks[:5]} after {len(game.events)} events"
            )
            assert not view.secret, f"{side}'s view carries the umpire's secrets"
        self.scans += 1


def legal_orders_leak_nothing(game: owsnb.Game) -> None:
    """What an order panel would send a seat (its legal orders and their candidates) names no unit
    that seat has not detected."""
    for side in game.state.sides:
        specs = game.legal_orders(side).specs
        text = "\x00".join(
            iter_strings(
                [
                    [str(o) for o in spec.examples] + [list(v) for v in spec.candidates.values()]
                    for spec in specs
                ]
            )
        )
        # ids as whole tokens; a list of candidate hexes places no unit
        leaks = find_leaks(text, hidden_tokens(game.state, side, game.ruleset))
        assert not leaks, f"{side}'s legal orders name undetected units {leaks[:5]}"


def play_one_turn(name: str, seed: int) -> tuple[owsnb.Game, object, ViewScan]:
    """Turn 1 of *name* with random legal orders; views and legal orders scanned after each."""
    game = load(name, seed=seed, turns=1)
    scan = ViewScan()
    scan(game)  # the initial views too
    report = random_playout(
        game,
        max_orders=3000,
        seed=seed,
        check_views=False,
        extra_checks=[scan, legal_orders_leak_nothing],
    )
    return game, report, scan


def steps_entered(game: owsnb.Game, turn: int) -> set[str]:
    return {
        e.data["clock"].step
        for e in game.events
        if e.kind == "clock.set" and e.data["clock"].turn == turn
    }


def expected_steps(game: owsnb.Game) -> set[str]:
    """Every step of the sequence (3), less the optional ones whose option is off."""
    return {
        s.key
        for p, s in SEQUENCE.walk()
        if not (s.optional and not option(game.state, s.optional))
        and not (p.optional and not option(game.state, p.optional))
    }


@pytest.mark.parametrize(
    "name", ["tutorial", pytest.param("western-pacific", marks=pytest.mark.slow), "baltic-ground"]
)
def test_a_full_turn_of_random_legal_orders_passes_every_step_and_leaks_nothing(name: str) -> None:
    t0 = time.perf_counter()
    game, report, scan = play_one_turn(name, seed=11)
    print(f"\n{name}: one turn, {len(report.orders)} orders in {time.perf_counter() - t0:.1f} s")
    assert report.over and report.turns == 2, (
        report
    )  # turn 1 finished, the clock moved on to turn 2
    assert expected_steps(game) <= steps_entered(game, 1)
    phases = {
        e.data["clock"].phase
        for e in game.events
        if e.kind == "clock.set" and e.data["clock"].turn == 1
    }
    assert {"1", "2", "3", "4", "5", "6", "7"} <= phases
    verbs = {o.split(":", 1)[1].split()[0] for o in report.orders}
    assert len(verbs - {"done", "advance"}) >= 6, verbs  # real orders, not only passes
    assert scan.scans == len(report.orders) + 1


def test_the_empty_sandbox_plays_a_full_turn_of_random_legal_orders_and_the_turn_advances() -> None:
    """The sandbox has no units: only the side-level orders (IO, theater ISR, deferral...) are legal,
    and every step of the sequence is still entered and the clock moves on to turn 2."""
    game, report, scan = play_one_turn("sandbox", seed=11)
    assert len(game.state.units) == 0
    assert report.over and report.turns == 2 and game.clock.turn == 2, report
    assert expected_steps(game) <= steps_entered(game, 1)
    verbs = {o.split(":", 1)[1].split()[0] for o in report.orders}
    assert {"isr", "io"} <= verbs, verbs  # side-level orders without units (8.2, 7.2)
    assert not [
        o
        for o in report.orders
        if o.split(":", 1)[1].split()[0] in ("move", "fly", "strike", "detect")
    ]
    assert scan.scans == len(report.orders) + 1


@pytest.mark.parametrize("name", ["tutorial", "baltic-ground"])
def test_10_9_no_hex_starts_above_the_stacking_limit(name: str, states: dict) -> None:
    from owsnb.rules.ows.movement import stack_steps, stacking_limit

    s = states[name]
    limit = stacking_limit(s)
    assert limit == 9  # 20 km hexes
    stacks: dict = {}
    for u in s.units.values():
        if u.hex is not None:
            stacks.setdefault((u.hex, u.side), []).append(u)
    for (h, side), us in stacks.items():
        assert stack_steps(s, us, h) <= limit, (s.map.label(h), side, [u.id for u in us])


@pytest.mark.parametrize("name", BUNDLED)
def test_ground_units_have_step_dice_mobility_and_an_hq_of_their_side(
    name: str, states: dict
) -> None:
    s = states[name]
    for u in s.units.values():
        c = counter(u)
        if c.category == "ground":
            assert len(u.data["step_dice"]) == u.max_steps, u.id  # 10.15.9.1.3: a die per step
            assert u.data["mobility"], u.id  # 10.10
        hq = u.data.get("hq")
        if hq:
            assert s.units[hq].side == u.side and counter(s.units[hq]).category == "hq", (u.id, hq)


def test_hands_and_dashboards_stay_with_their_side() -> None:
    game = load("western-pacific")
    for side, other in (("blue", "red"), ("red", "blue")):
        mine = game.view(side).sides[side].private
        assert (
            mine["hand"]["cards"] and mine["hand"]["io"]
        )  # decision cards and IO tokens (2.1.4, 4.2)
        assert "hand" not in game.view(side).sides[other].private  # the other hand is secret
        assert game.view(side).sides[other].public["space"]  # dashboards are public (2.1.3)


# -- the tutorial ---------------------------------------------------------------------------------
def briefing_orders(name: str) -> list[str]:
    """The orders of the briefing's ```orders blocks."""
    blocks = re.findall(r"```orders\n(.*?)```", raw(name)["briefing"], re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def play_script(game: owsnb.Game, orders: list[str], max_passes: int = 40) -> list:
    """Submit *orders* in turn; before each, the sides acting say ``done`` until the order's side
    may give an order of that verb (a step of the same turn). Returns the submissions."""
    from owsnb.kernel.orders import Order

    out = []
    turn = game.clock.turn
    for text in orders:
        o = Order.parse(text)
        for _ in range(max_passes):
            acting = game.clock.acting
            if o.side in acting and o.verb in {
                spec.verb for spec in game.legal_orders(o.side).specs
            }:
                break
            game.submit(f"{acting[0]}: done" if acting else "umpire: advance")
            assert game.clock.turn == turn, f"the turn ended before {text!r} could be given"
        else:
            raise AssertionError(f"no step of turn {turn} takes {text!r}")
        out.append(game.submit(text))
    return out


def test_tutorial_is_small_and_every_phase_has_something_to_do(states: dict) -> None:
    s = states["tutorial"]
    assert 200 <= len(s.map.hexes) <= 400 and s.map.km_per_hex() == pytest.approx(20.0)
    for side in ("blue", "red"):
        mine = [counter(u) for u in s.units.values() if u.side == side]
        assert 6 <= len(mine) <= 12  # a handful
        cats = {c.category for c in mine}
        assert {
            "naval",
            "air-base",
            "air-mission",
            "sof",
            "ground",
        } <= cats  # move, fly, insert, fight ashore
        assert any(c.grey_left for c in mine)  # a strike meets grey shields
        assert any(
            a.range >= 10 for c in mine for a in c.attacks if not a.air_to_air
        )  # reach across the strait
        assert s.sides[side].public["space"]["isr_pawns"] >= 1  # ISR to place
    port, field = (
        {u.side for u in s.units.values() if u.hex and kind in s.map.info(u.hex).features}
        for kind in ("port", "airfield")
    )
    assert port == field == {"blue", "red"}  # each side uses a port and an airfield
    aboard = [u for u in s.units.values() if u.box == "aboard"]
    assert aboard and all(u.side == "red" and u.data.get("amphibious") for u in aboard)


@pytest.mark.parametrize("seed", [None, 2, 3])
def test_tutorial_briefing_walkthrough_plays_turn_1_whatever_the_dice(seed: int | None) -> None:
    """The briefing's "first turn to copy" is legal with the scenario's seed (as a player would load
    it) and with other dice: every scripted order fits its step, then the turn ends."""
    game = owsnb.load("tutorial", seed=seed, save=False)
    orders = briefing_orders("tutorial")
    assert len(orders) >= 15
    subs = play_script(game, orders)
    verbs = [o.split(":", 1)[1].split()[0] for o in orders]
    taught = {
        "move",
        "amphibious-assault",
        "fly",
        "insert",
        "recon",
        "io",
        "isr",
        "strike",
        "shields",
        "attack",
    }
    assert taught <= set(verbs)
    for sub, verb in zip(subs, verbs, strict=True):
        if (
            verb == "shields"
        ):  # 9.2.1: the strike is rolled salvo by salvo once the defender answers
            assert any(line.startswith("salvo ") for line in sub.result.lines), sub.result.lines
    fight = subs[-1].result.lines  # 10.15.9: the landing force's attack on Kinmen, on the GCAT
    assert any(line.startswith("odds:") for line in fight) and any(
        "quality points" in line for line in fight
    )
    while game.clock.turn == 1:  # finish the turn
        acting = game.clock.acting
        game.submit(f"{acting[0]}: done" if acting else "umpire: advance")
    assert expected_steps(game) <= steps_entered(game, 1)


def test_tutorial_victory_names_kinmen_and_the_turn_count() -> None:
    v = raw("tutorial")["victory"]
    assert "0506" in v and "turn 2" in v and raw("tutorial")["turns"] == 2


# -- western pacific ------------------------------------------------------------------------------
def test_western_pacific_is_naval_air_and_missile_heavy_with_100_plus_units(states: dict) -> None:
    s = states["western-pacific"]
    assert len(s.units) >= 100 and s.map.km_per_hex() == pytest.approx(370.4)
    kinds: dict = {}
    for u in s.units.values():
        kinds[counter(u).category] = kinds.get(counter(u).category, 0) + 1
    sea_air_missile = sum(
        kinds.get(k, 0)
        for k in ("naval", "submarine", "air-mission", "air-base", "artillery", "air-defence")
    )
    assert sea_air_missile >= 4 * kinds.get("ground", 0)
    for side in ("blue", "red"):
        carriers = [
            u for u in s.units.values() if u.side == side and counter(u).box_total("aircraft")
        ]
        assert (
            len(carriers) >= 2
        )  # aircraft carriers / amphibious assault ships as bases at sea (6.5.6)
    flags = {f for u in s.units.values() for a in counter(u).attacks for f in a.flags}
    assert {"HGV", "MRBM", "IRBM", "SRBM", "H", "supersonic", "subsonic", "torpedo"} <= flags


def test_western_pacific_space_dashboards_and_decision_cards() -> None:
    rules = raw("western-pacific")["rules"]
    assert rules["space"]["blue"] != rules["space"]["red"]
    for side in ("blue", "red"):
        assert len(rules["hands"][side]["cards"]) >= 3
        for card in rules["hands"][side]["cards"]:  # every card is explained in the special rules
            assert any(card in r for r in raw("western-pacific")["special_rules"]), card


# -- baltic ground --------------------------------------------------------------------------------
def test_baltic_ground_has_engineers_supply_reserves_rear_area_and_an_air_missile_layer(
    states: dict,
) -> None:
    s = states["baltic-ground"]
    assert option(s, "rear_area") and s.map.meta["zone_km"] == 100
    for side in ("blue", "red"):
        mine = [u for u in s.units.values() if u.side == side]
        cats = {counter(u).category for u in mine}
        assert {
            "ground",
            "hq",
            "engineer",
            "css",
            "artillery",
            "air-defence",
            "air-base",
            "air-mission",
            "sof",
            "asp",
            "transport",
        } <= cats
        assert any(u.data.get("bridging") for u in mine)  # 10.11
        assert any(u.data.get("formation") for u in mine if counter(u).category == "hq")  # 10.2
        for lab in s.tables["ground"]["supply_sources"][side]:  # 11.1 (S1): own cities / railheads
            feats = s.map.info(s.map.hex(lab)).features
            assert any(f.get("owner") == side for f in feats.values()), lab
    assert any("reserve" in u.markers for u in s.units.values())  # 10.4
    assert any("major-river" in f for f in s.map.edges.values())  # the Neman (10.11 bridges)
    kinds = {u.kind for u in s.units.values()}
    assert {
        "ru-iskander",
        "ru-s400",
        "us-patriot",
        "us-f35a-cap",
        "ru-tank-regiment",
        "us-abct",
    } <= kinds


# -- sandbox --------------------------------------------------------------------------------------
def test_sandbox_is_empty_and_its_briefing_example_loads() -> None:
    spec = raw("sandbox")
    assert spec["units"] == [] and spec["catalogs"]
    block = re.search(r"```yaml\n(.*?)```", spec["briefing"], re.S)
    assert block, "the sandbox briefing shows how to add units"
    units = yaml.safe_load(block.group(1))["units"]
    assert len(units) >= 4
    state, _ = build_state(load_scenario({**spec, "units": units}, base=SCENARIOS), seed=1)
    assert set(state.units) == {u["id"] for u in units}
    assert counter(state.units["B-F35-1"]).base == "B-SQ-1"


def test_10_2_5_the_planned_offensive_card_seizes_the_ground_initiative_in_baltic_ground() -> None:
    game = load("baltic-ground")
    game.submit("umpire: advance 6.C.1")
    assert game.clock.acting == ("red",)
    offered = [
        str(o)
        for spec in game.legal_orders("red").specs
        if spec.verb == "initiative"
        for o in spec.examples
    ]
    assert "red: initiative seize=planned-offensive" in offered
    game.submit("red: initiative seize=planned-offensive")
    assert "planned-offensive" not in game.view("red").sides["red"].private["hand"]["decision"]


def test_strategic_lift_examples_lmsr_c17_and_the_7th_marines() -> None:
    cat = "ows-us-allied-200nm"
    lmsr = types_of(SCENARIOS / "catalogs" / f"{cat}.yaml")["us-lmsr"]
    assert lmsr["steps"] == 3 and [b["infantry"] for b in lmsr["data"]["boxes"]] == [
        1,
        1,
        1,
    ]  # 5.1.1.2
    assert (
        _t(cat, "us-c17")["heavy_lift"] and _t("ows-prc-200nm", "prc-y20")["heavy_lift"]
    )  # 5.1.1.3
    marines = types_of(SCENARIOS / "catalogs" / f"{cat}.yaml")["us-marine-regiment"]
    assert marines["steps"] == 3  # 2.2.7: 7th Marines 3 steps (a battalion, 1/7, is `steps: 1`)
    assert (
        raw("western-pacific")["units"][
            [u["id"] for u in raw("western-pacific")["units"]].index("B-MEU-31")
        ]["steps"]
        == 1
    )
    # 10.13.2.1: NATO heavy armour burns 2 FP a day, a Stryker brigade 1
    assert (
        _t("ows-us-allied-20km", "us-abct")["fuel"] == 2
        and _t("ows-us-allied-20km", "us-sbct")["fuel"] == 1
    )

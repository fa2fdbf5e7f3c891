"""The scenario loader: building the state, and reporting every problem at once with locations."""

from __future__ import annotations

import pytest
import yaml

import owsnb
from owsnb.kernel import ScenarioError
from owsnb.scenario import build_state, load_scenario
from tests.conftest import DATA


def _write(tmp_path, mutate):
    data = yaml.safe_load((DATA / "skirmish.yaml").read_text())
    mutate(data)
    (tmp_path / "skirmish-units.yaml").write_text((DATA / "skirmish-units.yaml").read_text())
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    return p


def test_regions_features_edges_and_catalog_overrides(tmp_path):
    def mutate(d):
        d["map"]["terrain"]["regions"].append({"terrain": "hills", "around": ["0707", 1]})
        d["units"][0]["data"] = {"move": 2}
        d["units"][0]["steps"] = 1

    g = owsnb.load(_write(tmp_path, mutate), seed=1, save=False)
    m = g.state.map
    assert sum(1 for h in m if m.terrain(h) == "hills") == 7
    assert sum(1 for h in m if m.terrain(h) == "forest") == 6  # rect 0302-0404: 2 columns x 3 rows
    u = g.unit("B-INF-1")
    assert u.get("move") == 2 and u.get("attack") == 6  # override merged over the catalog type
    assert (u.steps, u.max_steps, u.name) == (1, 2, "Infantry")


def test_every_problem_is_reported_with_file_path_and_line(tmp_path):
    def mutate(d):
        d["units"][0]["hex"] = "0999"
        d["units"][1]["side"] = "green"
        d["units"][2]["id"] = d["units"][0]["id"]
        d["units"][3]["type"] = "battleship"
        d["units"][4]["data"] = {"attack": 0}
        d["map"]["edges"][0]["hexes"] = ["0601", "0603"]
        d["options"] = {"no_such_option": True}

    p = _write(tmp_path, mutate)
    with pytest.raises(ScenarioError) as err:
        owsnb.load(p, save=False)
    msg = str(err.value)
    assert str(p) in msg
    expected = [
        ("units[0].hex", "off the map"),
        ("units[1].side", "no side 'green'"),
        ("units[2].id", "used twice"),
        ("units[3].type", "unknown unit type 'battleship'"),
        ("units[4].data.attack", "positive whole number"),
        ("map.edges[0].hexes[1]", "not adjacent"),
        ("options", "unknown option 'no_such_option'"),
    ]
    for path, fragment in expected:
        assert any(path in pr.path and fragment in pr.message for pr in err.value.problems), (
            path,
            msg,
        )
    assert all("(line " in pr.path for pr in err.value.problems if pr.path)
    assert len(err.value.problems) == len(expected)


def test_schema_errors_are_collected_with_lines(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text(
        "id: x\ntitle: X\nruleset: skirmish\nmap:\n  layout: {size: -3}\n  cols: 2\nsides: {}\ncolour: red\n"
    )
    with pytest.raises(ScenarioError) as err:
        load_scenario(p)
    paths = {pr.path.split(" ")[0]: pr for pr in err.value.problems}
    assert "map.layout.size" in paths and "greater than 0" in paths["map.layout.size"].message
    assert "colour" in paths and "unknown key" in paths["colour"].message
    assert "line 8" in paths["colour"].path
    assert "sides" in paths


def test_yaml_syntax_error_has_line_and_column(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("id: x\ntitle: [unclosed\nruleset: skirmish\n")
    with pytest.raises(ScenarioError, match=r"line \d+, column \d+: YAML syntax error"):
        load_scenario(p)


def test_unknown_scenario_name_lists_bundled_ones():
    with pytest.raises(
        ScenarioError, match="no scenario file or bundled scenario named 'atlantis'"
    ):
        load_scenario("atlantis")


def test_scenario_dict_and_seed_secrecy():
    data = yaml.safe_load((DATA / "skirmish.yaml").read_text())
    scn = load_scenario(data, base=DATA)
    state, rs = build_state(scn, seed=123)
    # the seed predicts the dice: it stays with whoever holds the game (game.meta), never the state
    assert "seed" not in state.secret and "seed" not in state.scenario
    g = owsnb.Game(rs, state)
    assert not g.view("blue").secret and "seed" not in g.view("umpire").secret


def test_anchor_centre_puts_the_middle_hex_on_the_origin(tmp_path):
    def mutate(d):
        d["map"]["layout"]["anchor"] = "centre"

    g = owsnb.load(_write(tmp_path, mutate), seed=1, save=False)
    lay = g.state.map.layout
    middle = g.hex("0504")  # 10 x 8 map: column 5, row 4
    assert lay.anchor == tuple(middle)
    assert lay.centre(middle) == pytest.approx((6.5, 51.5))


def test_load_text_reads_yaml_as_if_it_were_the_file_at_path(tmp_path):
    """The editor checks the text it is about to save: ``load_text(text, path)`` resolves the
    catalogs and the rule set's own files next to *path* (which need not exist yet) and names it,
    with the lines of *text*, in every problem."""
    from owsnb.scenario.loader import load_text

    src = owsnb.scenario.find_scenario("opscale-river-valley")
    text = src.read_text()
    scn = load_text(text, src.parent / "not-saved-yet.yaml")
    state, _ = build_state(scn, 1)  # rules.catalog (an opscale file name) found next to the path
    assert state.scenario["file"].endswith("not-saved-yet.yaml") and len(state.units) == len(
        scn.spec.units
    )
    with pytest.raises(ScenarioError) as err:
        load_text(text, tmp_path / "elsewhere.yaml")  # its catalogs are not next to this path
    assert all(str(tmp_path / "elsewhere.yaml") in str(p) for p in err.value.problems)
    broken = text.replace('hex: "0504"', 'hex: "9999"', 1)
    with pytest.raises(ScenarioError) as err:
        build_state(load_text(broken, src.parent / "x.yaml"), 1)
    (p,) = err.value.problems
    line = broken[: broken.index('"9999"')].count("\n") + 1
    assert p.path == f"units[1].hex (line {line})" and "off the map" in p.message


def test_a_changed_catalog_is_read_again(tmp_path):
    """Catalogs are kept between loads while their file is unchanged (the editor checks a
    scenario on every click); a changed file is read again."""
    path = _write(tmp_path, lambda d: None)
    cat = tmp_path / "skirmish-units.yaml"
    first = load_scenario(path).catalogs
    cat.write_text(cat.read_text().replace("attack: 6", "attack: 7", 1))
    again = load_scenario(path).catalogs
    key = next(k for k, t in first.items() if t["data"].get("attack") == 6)
    assert again[key]["data"]["attack"] == 7
    again[key]["data"]["attack"] = 99  # a caller's change stays with the caller
    assert load_scenario(path).catalogs[key]["data"]["attack"] == 7


def test_one_spelling_for_data_keys_the_other_is_refused_naming_file_key_and_the_right_key(
    tmp_path,
):
    """Issue 17.4: each rule set spells its data keys one way, its rule book's (OWS: "defense";
    the skirmish example: "defence", ``RuleSet.spelling``). A scenario or catalog key spelled the
    other way is refused with its file, key path, line and the right key — not ignored, not a
    pydantic 'extra field'."""
    from owsnb.scenario.loader import load_text

    src = owsnb.scenario.find_scenario("tutorial")  # OWS
    text = src.read_text() + "tables:\n  regeneration:\n    infrastructure: {default_defence: 4}\n"
    with pytest.raises(ScenarioError) as err:
        load_text(text, src)
    (p,) = err.value.problems
    assert p.file == str(src) and p.path.startswith(
        "tables.regeneration.infrastructure.default_defence (line "
    )
    assert "'default_defense'" in p.message
    ok = text.replace("default_defence", "default_defense")  # the right key loads
    state, _ = build_state(load_text(ok, src), 1)
    assert state.tables["regeneration"]["infrastructure"]["default_defense"] == 4

    path = _write(tmp_path, lambda d: None)  # skirmish: its catalog spelled "defense"
    cat = tmp_path / "skirmish-units.yaml"
    cat.write_text(cat.read_text().replace("defence: 5", "defense: 5", 1))
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    (p,) = err.value.problems
    assert p.file == str(cat.resolve()) and p.path == "types.armour.data.defense (line 6)"
    assert "'defence'" in p.message

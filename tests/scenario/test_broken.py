"""The broken-scenario corpus: every file in ``broken/`` fails to load with located, readable errors.

Each file is loaded the way a user would (``owsnb.load(path)``; test rule set ``skirmish``, and
``ows`` for the ``ows-*`` files with the OWS test catalog); the
error must list exactly the expected problems, each naming the file (the scenario, or the catalog
the problem is in), the key path with its line, and what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import owsnb
from owsnb.kernel.errors import ScenarioError

BROKEN = Path(__file__).parent / "broken"

# file -> [(file the problem is in, "key.path (line N)" or "" for the whole file, message fragment)]
EXPECTED: dict[str, list[tuple[str, str, str]]] = {
    "yaml-syntax.yaml": [
        ("yaml-syntax.yaml", "", "line 8, column 7: YAML syntax error: expected ',' or '}'")
    ],
    "not-a-mapping.yaml": [
        (
            "not-a-mapping.yaml",
            "",
            "must be a mapping of keys (id, title, ruleset, map, sides, units...), not list",
        )
    ],
    "empty.yaml": [("empty.yaml", "", "must be a mapping of keys")],
    "missing-required.yaml": [
        ("missing-required.yaml", "title (line 2)", "required key is missing"),
        ("missing-required.yaml", "map (line 2)", "required key is missing"),
    ],
    "unknown-keys.yaml": [
        ("unknown-keys.yaml", "titel (line 4)", "unknown key (check spelling)"),
        ("unknown-keys.yaml", "map.layout.orign (line 8)", "unknown key (check spelling)"),
        ("unknown-keys.yaml", "units[0].strenght (line 16)", "unknown key (check spelling)"),
    ],
    "wrong-types.yaml": [
        (
            "wrong-types.yaml",
            "turns (line 6)",
            "valid integer, unable to parse string as an integer (got 'many')",
        ),
        (
            "wrong-types.yaml",
            "map.layout.orientation (line 8)",
            "Input should be 'flat' or 'pointy' (got 'sideways')",
        ),
        ("wrong-types.yaml", "map.layout.size (line 8)", "greater than 0 (got -10)"),
        (
            "wrong-types.yaml",
            "map.cols (line 9)",
            "valid integer, unable to parse string as an integer (got 'ten')",
        ),
        ("wrong-types.yaml", "special_rules (line 13)", "valid list (got 'no special rules')"),
    ],
    "bad-id.yaml": [
        ("bad-id.yaml", "owsnb (line 2)", "Input should be 1 (got 2)"),
        (
            "bad-id.yaml",
            "id (line 3)",
            "should match pattern '^[A-Za-z0-9_.-]+$' (got 'my scenario!')",
        ),
    ],
    "unit-off-map.yaml": [
        (
            "unit-off-map.yaml",
            "units[1].hex (line 16)",
            "hex 1512 is off the map (10 columns x 8 rows)",
        )
    ],
    "bad-hex-label.yaml": [
        (
            "bad-hex-label.yaml",
            "map.terrain.hexes.5 (line 11)",
            "'5' is not a hex label: expected 4 digits CCRR",
        ),
        (
            "bad-hex-label.yaml",
            "units[0].hex (line 17)",
            "'03x4' is not a hex label: expected 4 digits CCRR",
        ),
    ],
    "unknown-side.yaml": [
        ("unknown-side.yaml", "initiative (line 6)", "no side 'purple'; sides are blue, red"),
        ("unknown-side.yaml", "units[1].side (line 17)", "no side 'green'; sides are blue, red"),
    ],
    "reserved-side.yaml": [
        ("reserved-side.yaml", "sides.umpire (line 12)", "'umpire' cannot name a side (reserved")
    ],
    "duplicate-ids.yaml": [
        ("duplicate-ids.yaml", "units[2].id (line 17)", "unit id 'B-INF-1' is used twice")
    ],
    "unknown-type.yaml": [
        ("unknown-type.yaml", "units[0].type (line 15)", "unknown unit type 'battleship'")
    ],
    "no-catalog.yaml": [
        (
            "no-catalog.yaml",
            "units[0].type (line 13)",
            "unknown unit type 'infantry'; add its catalog under 'catalogs:'",
        )
    ],
    "missing-catalog.yaml": [
        (
            "missing-catalog.yaml",
            "catalogs[1] (line 12)",
            "catalog file 'catalogs/nowhere.yaml' not found",
        )
    ],
    "wrong-catalog.yaml": [
        (
            "other-ruleset.yaml",
            "ruleset (line 3)",
            "catalog is for rule set 'tocs' but the scenario plays 'skirmish'",
        ),
        ("other-ruleset.yaml", "types.infantry (line 6)", "type 'infantry' is also defined in"),
    ],
    "catalog-typo.yaml": [
        ("typo.yaml", "types.grenadier.stepz (line 6)", "unknown key (check spelling)"),
        ("typo.yaml", "types.militia.steps (line 7)", "greater than 0 (got 0)"),
    ],
    "river-not-adjacent.yaml": [
        (
            "river-not-adjacent.yaml",
            "map.edges[0].hexes[2] (line 11)",
            "0602 and 0604 are not adjacent: a river runs between neighbours",
        ),
        ("river-not-adjacent.yaml", "map.edges[1].hexes[1] (line 12)", "hex 1108 is off the map"),
    ],
    "bad-option.yaml": [
        (
            "bad-option.yaml",
            "options (line 7)",
            "unknown option 'sudden_deth'; known options: sudden_death",
        )
    ],
    "bad-option-value.yaml": [
        (
            "bad-option-value.yaml",
            "options (line 6)",
            "option 'sudden_death' must be bool, not 'yes'",
        )
    ],
    "unknown-table.yaml": [
        ("unknown-table.yaml", "tables.crt (line 13)", "skirmish has no data table 'crt'")
    ],
    "unknown-ruleset.yaml": [
        ("unknown-ruleset.yaml", "ruleset (line 5)", "no rule set 'chess'; known:")
    ],
    "bad-unit-data.yaml": [
        (
            "bad-unit-data.yaml",
            "units[0].data.attack (line 14)",
            "attack must be a positive whole number, got 0 (type infantry)",
        ),
        (
            "bad-unit-data.yaml",
            "units[1].steps (line 15)",
            "5 steps is more than type infantry has (2)",
        ),
    ],
    "hex-and-box.yaml": [
        (
            "hex-and-box.yaml",
            "units[0] (line 14)",
            "a unit is either on a hex or in a box, not both",
        )
    ],
    "bad-terrain.yaml": [
        (
            "bad-terrain.yaml",
            "map.terrain.regions[1] (line 13)",
            "a region needs hexes, rect, bbox or around",
        )
    ],
    "terrain-off-map.yaml": [
        (
            "terrain-off-map.yaml",
            "map.terrain.regions[0].rect[1] (line 12)",
            "hex 1209 is off the map",
        ),
        ("terrain-off-map.yaml", "map.features[1] (line 15)", "hex 0505 already has a city"),
        ("terrain-off-map.yaml", "map.features[2].hex (line 16)", "hex 0009 is off the map"),
    ],
    "missing-briefing-file.yaml": [
        ("missing-briefing-file.yaml", "briefing_file (line 6)", "cannot read")
    ],
    # OWS (the OWS catalog's payload schema, 2.2; the OWS scenario checks)
    "ows-bad-die.yaml": [
        (
            "ows-bad-die.yaml",
            "units[1].data.attacks[0].die (line 21)",
            "'d7' is not an OWS die; the ladder is d4, d6, d8, d10, d12, d16, d20 (2.1) (type type-055)",
        ),
        (
            "ows-bad-die.yaml",
            "units[2].data.red_shield (line 22)",
            "valid integer, unable to parse string as an integer (got 'strong') (type type-054)",
        ),
    ],
    "ows-unknown-payload-key.yaml": [
        (
            "ows-unknown-payload-key.yaml",
            "units[0].data.signatur (line 15)",
            "unknown key (check spelling) (type ddg-flight-iia)",
        ),
        (
            "ows-unknown-payload-key.yaml",
            "units[1].data.grey_shields[0].rnage (line 21)",
            "unknown key (check spelling) (type type-055)",
        ),
    ],
    "ows-unknown-type.yaml": [
        ("ows-unknown-type.yaml", "units[1].type (line 16)", "unknown unit type 'type-052d'")
    ],
    "ows-over-capacity.yaml": [
        (
            "ows-over-capacity.yaml",
            "units[1].hex (line 19)",
            "F35-BASE-2 is squadron base 2 on the airfield at 0102: 2 squadrons based, capacity 1 (6.5.5)",
        ),
    ],
    "ows-bad-rules.yaml": [
        (
            "ows-bad-rules.yaml",
            "rules.weathr (line 16)",
            "unknown OWS rules key; known: space, hands",
        ),
        (
            "ows-bad-rules.yaml",
            "rules.space.blue.isr_dice (line 15)",
            "unknown space dashboard row; rows are c2, pnt, isr_die, isr_pawns (2.1.3)",
        ),
    ],
    "several-problems.yaml": [
        ("several-problems.yaml", "options (line 6)", "unknown option 'fog'"),
        (
            "several-problems.yaml",
            "map.edges[0].hexes[1] (line 12)",
            "0601 and 0603 are not adjacent",
        ),
        ("several-problems.yaml", "units[1].id (line 19)", "unit id 'B-INF-1' is used twice"),
        ("several-problems.yaml", "units[2].side (line 20)", "no side 'reds'; sides are blue, red"),
        ("several-problems.yaml", "units[3].type (line 21)", "unknown unit type 'tank'"),
        ("several-problems.yaml", "units[4].hex (line 22)", "hex 2020 is off the map"),
    ],
}


def test_every_broken_file_has_expectations() -> None:
    files = {p.name for p in BROKEN.glob("*.yaml")}
    assert files == set(EXPECTED)
    assert len(files) >= 15


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_scenario_reports_located_problems(name: str) -> None:
    path = BROKEN / name
    with pytest.raises(ScenarioError) as info:
        owsnb.load(path, seed=1, save=False)
    err = info.value
    expected = EXPECTED[name]
    got = [(Path(p.file).name, p.path, p.message) for p in err.problems]
    assert len(got) == len(expected), "\n".join(map(str, err.problems))
    for file, where, fragment in expected:
        hits = [g for g in got if g[0] == file and g[1] == where and fragment in g[2]]
        assert hits, f"no problem {file}: {where}: ...{fragment}... in\n" + "\n".join(
            map(str, err.problems)
        )
    text = str(err)
    n = len(expected)
    assert text.startswith(f"{n} problem{'s' if n != 1 else ''} in scenario:")
    for file, where, fragment in expected:
        assert file in text and fragment in text and (where in text)


@pytest.mark.parametrize(
    ("name", "line", "token"),
    [
        ("unit-off-map.yaml", 16, "1512"),
        ("bad-hex-label.yaml", 17, "03x4"),
        ("wrong-types.yaml", 6, "many"),
        ("unknown-keys.yaml", 4, "titel"),
        ("unknown-keys.yaml", 16, "strenght"),
        ("bad-option.yaml", 7, "sudden_deth"),
        ("several-problems.yaml", 22, "2020"),
        ("river-not-adjacent.yaml", 11, "0604"),
        ("unknown-table.yaml", 13, "crt"),
        ("duplicate-ids.yaml", 17, "B-INF-1"),
        ("terrain-off-map.yaml", 12, "1209"),
        ("ows-bad-die.yaml", 21, "d7"),
        ("ows-bad-die.yaml", 22, "strong"),
        ("ows-unknown-payload-key.yaml", 15, "signatur"),
        ("ows-unknown-payload-key.yaml", 21, "rnage"),
        ("ows-unknown-type.yaml", 16, "type-052d"),
        ("ows-over-capacity.yaml", 19, "F35-BASE-2"),
        ("ows-bad-rules.yaml", 16, "weathr"),
        ("ows-bad-rules.yaml", 15, "isr_dice"),
    ],
)
def test_reported_line_holds_the_offending_text(name: str, line: int, token: str) -> None:
    """The line numbers are the file's own: the reported line shows the bad key or value."""
    with pytest.raises(ScenarioError) as info:
        owsnb.load(BROKEN / name, seed=1, save=False)
    assert any(p.path.endswith(f"(line {line})") for p in info.value.problems)
    assert token in (BROKEN / name).read_text(encoding="utf-8").splitlines()[line - 1]


def test_loading_a_broken_file_twice_gives_the_same_report() -> None:
    path = BROKEN / "several-problems.yaml"
    reports = []
    for _ in range(2):
        with pytest.raises(ScenarioError) as info:
            owsnb.load(path, seed=1, save=False)
        reports.append(str(info.value))
    assert reports[0] == reports[1]

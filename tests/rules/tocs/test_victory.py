"""Victory points (Basic L86-L89; OMG-N VP table L854-L865)."""

from __future__ import annotations

import yaml

from owsnb.rules.tocs.victory import score

from .conftest import DATA, begin, board, set_owner, submit


def _bridge_board():
    """A German engineer next to a wooden bridge over a river; the far hex, a minor-bridge
    objective, is Allied."""
    spec = yaml.safe_load((DATA / "tocs-test.yaml").read_text())
    spec["map"]["edges"] += [
        {"type": "river", "hexes": ["0806", "0807"], "class": "medium"},
        {"type": "bridge", "hexes": ["0806", "0807"], "material": "wood"},
    ]
    units = [
        {"id": "A-HQ", "type": "para-hq-regiment", "side": "allied", "hex": "0303"},
        {"id": "G-HQ", "type": "ger-regiment-hq", "side": "german", "hex": "1005"},
        {
            "id": "G-E",
            "type": "ger-infantry-company",
            "side": "german",
            "hex": "0806",
            "data": {"engineer": True},
        },
    ]
    rules = {"objectives": [{"hex": "0807", "key": "minor_bridge", "name": "Hatert"}]}
    g = board(units=units, map=spec["map"], rules=rules, options={"module": "omg-n"})
    set_owner(g, "0807", "allied")
    return g


def test_omg_n_l859_a_minor_bridge_the_germans_destroyed_scores_for_them():
    """OMG-N German VP table, L859: "Each Bridge Owned or Destroyed: Mook RR, Molenhoek, Heumen,
    Malden, Hatert, Honinghutje | 2"."""
    g = _bridge_board()
    assert score(g.state, "german")["total"] == 0  # the Allies own it, the bridge stands
    begin(g)
    submit(g, "allied: done", [6, 6])
    begin(g, "german")
    submit(g, "german: activate G-E")
    submit(g, "german: bridge G-E 0807 destroy", [1])  # wood: destroyed on d6 <= 5
    assert g.state.public["bridges"]["0806-0807"]["status"] == "destroyed"
    tally = score(g.state, "german")
    assert tally["total"] == 2 and tally["lines"] == [("Hatert (minor_bridge), destroyed", 2)]
    assert g.state.map.hexes[g.hex("0807")].facts["owner"] == "allied"

"""How the battle ends and who holds the field (ruling R20), and formations that arrive (§10)."""

from __future__ import annotations

from .conftest import battlefield


def _leaving_board():
    return battlefield(
        [
            ("G-HQ", "ger-general-average", "axis", "0101", "ger"),
            ("S-HQ", "sov-general-average", "soviet", "1108", "sov"),
        ],
        rules={
            "objectives": [{"hex": "0505", "name": "Kalinovka", "points": 5, "control": "axis"}]
        },
        card="ger",
    )


def test_r20_a_side_that_leaves_the_battlefield_loses_it_and_its_objectives():
    """§2: "Nothing can be done contrary to what could or would be done in actual war." The rule
    book has no victory rules (R20): a side that has marched every stand off the table has given
    up the field. It may not keep its objectives and win: the side still on the battlefield wins."""
    g = _leaving_board()
    assert g.outcome().startswith("decisive victory for German")  # it holds Kalinovka
    g.submit("axis: exit G-HQ")  # the only German stand leaves from its home edge
    assert g.is_over()
    text = g.outcome()
    assert text.startswith("decisive victory for Soviet"), text
    assert "German has left the battlefield" in text
    from owsnb.rules.opart.victory import score

    assert score(g.state)["axis"]["objectives"] == 0

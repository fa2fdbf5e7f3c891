"""Order notation, binding to order types, legal-order specs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from owsnb.kernel import IllegalOrderError, Order, OrderSyntaxError, OrderType, Param

word = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
token = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12
).filter(lambda s: s.strip() == s and "," not in s and "=" not in s)


@given(
    side=word,
    verb=word,
    args=st.lists(token, max_size=3),
    params=st.dictionaries(
        word, st.one_of(token, st.lists(token, min_size=1, max_size=3).map(tuple)), max_size=3
    ),
)
def test_notation_round_trips(side, verb, args, params):
    o = Order(side, verb, args, params)
    assert Order.parse(str(o)) == o
    assert eval(repr(o), {"Order": Order}) == o  # noqa: S307 - repr must evaluate back


def test_parse_reads_positional_and_named():
    o = Order.parse("blue: strike 0907 salvos=DDG-114:d12,DDG-114:d12 mode=layered")
    assert (o.side, o.verb, o.args) == ("blue", "strike", ("0907",))
    assert o.params["salvos"] == ("DDG-114:d12", "DDG-114:d12")
    assert o.get("mode") == "layered"


def test_quoted_values_survive():
    o = Order("red", "note", ["Taiwan Strait"], {"text": "a b c"})
    assert str(o) == "red: note 'Taiwan Strait' text='a b c'"
    assert Order.parse(str(o)) == o


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "needs text"),
        ("move INF-1 0304", "say who gives the order"),
        ("blue:", "no verb"),
        ("blue: move 'unterminated", "No closing quotation"),
        ("bl ue x: move", "say who gives"),
    ],
)
def test_bad_text_is_a_syntax_error(text, fragment):
    with pytest.raises(OrderSyntaxError) as err:
        Order.parse(text)
    assert fragment in str(err.value)
    assert err.value.code == "syntax"


def test_parse_with_default_side():
    assert Order.parse("done", side="red") == Order("red", "done")


MOVE = OrderType(
    "move",
    (
        Param("unit", "unit"),
        Param("to", "hex"),
        Param("mode", "choice", positional=False, optional=True, choices=("road", "rail")),
    ),
    rule="10.10",
)


def test_bind_maps_args_and_checks_choices():
    assert MOVE.bind(Order.parse("blue: move INF-1 0304 mode=rail")) == {
        "unit": "INF-1",
        "to": "0304",
        "mode": "rail",
    }
    with pytest.raises(IllegalOrderError) as err:
        MOVE.bind(Order.parse("blue: move INF-1 0304 mode=boat"))
    assert (
        err.value.code == "bad-arguments"
        and err.value.rule == "10.10"
        and "road, rail" in str(err.value)
    )
    with pytest.raises(IllegalOrderError, match="needs to"):
        MOVE.bind(Order.parse("blue: move INF-1"))
    with pytest.raises(IllegalOrderError, match="no parameter 'speed'"):
        MOVE.bind(Order.parse("blue: move INF-1 0304 speed=3"))
    with pytest.raises(IllegalOrderError, match="got extra"):
        MOVE.bind(Order.parse("blue: move INF-1 0304 0305"))


def test_make_builds_what_bind_reads():
    o = MOVE.make("blue", unit="INF-1", to="0304", mode="road")
    assert str(o) == "blue: move INF-1 0304 mode=road"
    assert MOVE.bind(o) == {"unit": "INF-1", "to": "0304", "mode": "road"}
    salvo = OrderType("strike", (Param("target", "unit"), Param("salvos", "salvo", repeat=True)))
    o = salvo.make("red", target="T-1", salvos=["a:d10", "b:d8"])
    assert salvo.bind(Order.parse(str(o))) == {"target": "T-1", "salvos": ("a:d10", "b:d8")}


def test_make_takes_text_for_a_list_as_the_notation_writes_it():
    """Issue 20: ``B-SQ-CCK:2`` typed for a list of shield allocations is one item, not its
    characters; commas separate items as in the order's text."""
    shields = OrderType("shields", (Param("alloc", "text", repeat=True, optional=True),))
    assert str(shields.make("blue", alloc="B-SQ-CCK:2")) == "blue: shields B-SQ-CCK:2"
    o = shields.make("blue", alloc="B-SQ-CCK:2, B-PAT-1:1")
    assert shields.bind(Order.parse(str(o))) == {"alloc": ("B-SQ-CCK:2", "B-PAT-1:1")}

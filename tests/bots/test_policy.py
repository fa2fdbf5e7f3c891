"""Issue 22, deliver 1: the policy interface and the bot registry.

A policy is given its side's ``SideView`` (never the truth, never the umpire's view), its legal
orders and a seeded generator, and returns an order or passes; bots are named and registered
like rule sets, options as data."""

from __future__ import annotations

import numpy as np
import pytest

import owsnb.bots as bots
from owsnb.bots.candidates import candidate_orders, enumerate_orders
from owsnb.kernel.orders import Order
from owsnb.kernel.view import SideView


def test_registry_names_the_three_bots_and_builds_them_with_options_as_data() -> None:
    assert {"random", "greedy", "search"} <= set(bots.names())
    b = bots.get("search", budget=0.25, width=3)
    assert b.name == "search" and b.options == {"budget": 0.25, "width": 3}
    assert b.label == "search(budget=0.25,width=3)"
    same = bots.get({"bot": "search", "budget": 0.25, "width": 3})
    assert same.options == b.options and same is not b
    assert bots.get(b) is b


def test_registry_refuses_unknown_bots_and_options_clearly() -> None:
    with pytest.raises(KeyError, match="no bot 'chess'; known: .*greedy"):
        bots.get("chess")
    with pytest.raises(TypeError, match="bot 'greedy' has no option 'depth'; options: .*threshold"):
        bots.get("greedy", depth=3)
    with pytest.raises(ValueError, match="names it under 'bot'"):
        bots.get({"name": "greedy"})


def test_register_adds_a_bot_of_ones_own(game) -> None:
    class FirstExample(bots.Policy):
        name = "first-example"

        def choose(self, view, legal, rng, budget):
            return next((s.examples[0] for s in legal if s.examples and s.verb != "done"), None)

    bots.register("first-example", FirstExample)
    try:
        order = bots.get("first-example").decide(
            game.view("blue"), game.legal_orders("blue"), np.random.default_rng(0)
        )
        assert (
            isinstance(order, Order) and order.side == "blue" and order in game.legal_orders("blue")
        )
    finally:
        from owsnb.bots import registry

        registry._FACTORIES.pop("first-example")


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_a_bot_is_never_given_the_truth_or_the_umpires_view(game, name: str) -> None:
    """Enforced by types: ``decide`` takes a side's ``SideView`` only."""
    b = bots.get(name, **({"budget": 0.05} if name == "search" else {}))
    legal, rng = game.legal_orders("blue"), np.random.default_rng(0)
    with pytest.raises(TypeError, match="SideView, not GameState"):
        b.decide(game.state, legal, rng)
    with pytest.raises(TypeError, match="never given the umpire's view"):
        b.decide(game.view("umpire"), legal, rng)
    with pytest.raises(ValueError, match="legal orders of blue given with red's view"):
        b.decide(game.view("red"), legal, rng)
    with pytest.raises(TypeError, match="numpy Generator"):
        b.decide(game.view("blue"), legal, 7)
    assert isinstance(game.view("blue"), SideView)
    order = b.decide(game.view("blue"), legal, rng)
    assert order is None or order in legal


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_a_bot_is_a_function_of_its_view_legal_orders_and_seed(game, name: str) -> None:
    opts = {"iterations": 20, "budget": None} if name == "search" else {}
    view, legal = game.view("blue"), game.legal_orders("blue")
    a = [bots.get(name, **opts).decide(view, legal, np.random.default_rng(s)) for s in range(4)]
    b = [bots.get(name, **opts).decide(view, legal, np.random.default_rng(s)) for s in range(4)]
    assert a == b


def test_candidates_cover_the_specs_examples_first_and_bounded(game) -> None:
    legal = game.legal_orders("blue")
    rng = np.random.default_rng(0)
    orders = candidate_orders(legal, rng, per_spec=10)
    move = legal["move"]
    assert [str(o) for o in orders[: len(move.examples[:10])]] == [
        str(o) for o in move.examples[:10]
    ]
    assert all(o.verb != "done" for o in orders) and len(orders) <= 10 * len(legal.specs)
    assert len(enumerate_orders(move, rng, limit=4)) == 4
    # a parameter without candidates (free input) is filled only by the spec's examples
    assert {str(o) for o in enumerate_orders(move, rng, limit=500)} == {
        str(o) for o in move.examples
    }


def test_the_bots_layer_imports_kernel_and_rules_only() -> None:
    """``owsnb.bots`` sits beside ``server`` and ``analysis``: it imports the kernel (and the
    rule sets through their registry), never widgets, pages, the server or the analysis layer."""
    import ast
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    forbidden = [
        "ipywidgets",
        "IPython",
        "owsnb.widgets",
        "owsnb.server",
        "owsnb.pages",
        "owsnb.analysis",
        "xarray",
        "pandas",
    ]
    code = (
        "import sys, owsnb.bots, owsnb.bots.search, owsnb.bots.greedy, owsnb.bots.random\n"
        f"bad = sorted(m for m in sys.modules if any(m == f or m.startswith(f + '.') for f in {forbidden!r}))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True
    )
    assert out.stdout.strip() == ""
    stdlib = set(sys.stdlib_module_names)
    for path in (root / "owsnb" / "bots").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            )
            for n in names:
                assert (
                    n.split(".")[0] in stdlib
                    or n == "numpy"
                    or n.startswith(("owsnb.kernel", "owsnb.bots"))
                ), f"{path.name} imports {n}"


@pytest.mark.parametrize(
    "options",
    [
        {"horizon": 4, "act": 0.5},
        {"replies": False},
        {"depth": 1},
        {"judge": False},
        {"clock": "cpu", "budget": 0.05},
    ],
)
def test_the_search_options_all_play(options) -> None:
    """Random play-outs after the tree, no replies, a shallow tree, lines judged where the tree
    leaves them, a CPU-clock budget."""
    import owsnb

    game = owsnb.load("opart-kalinovka", seed=2, save=False)
    side = game.clock.acting[0]
    opts = {"iterations": 12, "budget": None, **options}
    if "clock" in options:
        opts.pop("iterations")
    bot = bots.get("search", **opts)
    legal = game.legal_orders(side)
    order = bot.decide(game.view(side), legal, np.random.default_rng(0))
    assert order is None or order in legal
    assert bot.last["iterations"] > 0 and bot.last["failed"] == 0


def test_only_a_destination_counts_as_a_move_for_time_distance() -> None:
    """``move U to`` brings the unit nearer its goals; ``roadblock U HEX`` (TOCS 10.10) and
    ``attack U HEX`` (10.6) name a hex the unit does not go to: no time-distance credit."""
    import owsnb
    from owsnb.bots.evaluate import moved
    from owsnb.kernel.orders import Order

    game = owsnb.load("tocs-nijmegen", seed=1, save=False)
    view, rs = game.view("allied"), game.ruleset
    unit = next(u for u in view.own_units if u.get("cls") == "company")
    there = view.map.label(next(iter(unit.hex.neighbours())))
    assert moved(rs, view, Order("allied", "move", (unit.id, there))) == (
        unit,
        view.map.hex(there),
    )
    for verb in ("roadblock", "attack", "recon", "probe"):
        assert moved(rs, view, Order("allied", verb, (unit.id, there))) is None, verb

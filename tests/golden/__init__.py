"""Golden playthrough transcripts (issue 16): every bundled scenario played by seeded random legal
orders, and the scripted first turn of ``notebooks/00-quickstart.ipynb``, each recorded by
:mod:`owsnb.testing.transcript` and kept here as ``<name>.txt``.

``test_transcripts.py`` replays each one in memory and diffs it against its file. When a change
is meant to change play, regenerate them all and commit the diff with the change, saying why:

    PYTHONPATH=. python -m tests.golden --update

(``python -m tests.golden`` alone checks them and prints the diffs; ``--only NAME`` picks one.)
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import owsnb
from owsnb.kernel.registry import register_ruleset
from owsnb.testing.transcript import Transcript, fixed_salt, random_transcript

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
QUICKSTART = ROOT / "notebooks" / "00-quickstart.ipynb"
REGENERATE = "PYTHONPATH=. python -m tests.golden --update"

register_ruleset("skirmish", "tests.rulesets.skirmish:RULESET")  # the kernel's test rule set


@dataclass(frozen=True)
class Playout:
    """A seeded random play-out: the scenario, its dice seed (also the policy's seed), at most
    this many orders (fewer if the game ends) and how often a side passes."""

    scenario: str
    seed: int
    orders: int
    pass_weight: float = 0.1
    reaches: str = ""  # what it reaches (checked by hand when chosen; README.md lists them)


# Seeds and lengths chosen so each reaches real play (movement, detection, combat) and, where the
# scenario is short enough, its end and verdict; all together stay small and fast.
PLAYOUTS: dict[str, Playout] = {
    "tutorial": Playout("tutorial", 2, 300, 0.15),
    "western-pacific": Playout("western-pacific", 1, 300),
    "baltic-ground": Playout("baltic-ground", 5, 300),
    "sandbox": Playout("sandbox", 1, 100, 0.15),
    "combatops-blue-attack": Playout("combatops-blue-attack", 2, 400),
    "combatops-red-attack": Playout("combatops-red-attack", 12, 400, 0.05),
    "opart-kalinovka": Playout("opart-kalinovka", 4, 300, 0.15),
    "opscale-river-valley": Playout("opscale-river-valley", 3, 300, 0.15),
    "tocs-nijmegen": Playout("tocs-nijmegen", 5, 300),
    "skirmish": Playout(str(ROOT / "tests" / "data" / "skirmish.yaml"), 3, 80, 0.15),
}


def playout(name: str) -> Transcript:
    """The random play-out *name* of :data:`PLAYOUTS`, recorded."""
    p = PLAYOUTS[name]
    game = fixed_salt(owsnb.load(p.scenario, seed=p.seed, save=False), "golden")
    return random_transcript(
        game,
        f"{name}, random play-out",
        orders=p.orders,
        seed=p.seed,
        pass_weight=p.pass_weight,
        header=[("dice seed", p.seed), ("secret salt", "golden"), ("regenerate", REGENERATE)],
    )


# The quickstart's tutorial turn, cell by cell: ("until-step", step) says done for whoever acts
# until that step (cell 24); ("submit", order) and ("undo",) are the notebook's own calls;
# ("play", order) is its play(): done until *order* may be given, then the order;
# ("end-turn", advance) finishes turn 1: done for whoever acts, *advance* when nobody does
# (cell 50). test_transcripts checks that these are the notebook's orders.
TUTORIAL_TURN: list[tuple[str, ...]] = [
    ("until-step", "3.A.1"),
    ("submit", "red: move R-LST-1 0506"),  # refused: 0506 is land (6.4)
    ("submit", "red: move R-LST-1 0406"),
    ("submit", "red: done"),
    ("submit", "blue: move B-DDG-1801 0408"),
    ("undo",),
    ("submit", "blue: move B-DDG-1801 0407"),
    ("play", "red: amphibious-assault R-CAB-1 0506"),
    ("play", "red: amphibious-assault R-MAR-1 0506"),
    ("play", "red: fly R-J16-CAP 0907"),
    ("play", "blue: fly B-F16-CAP 0907"),
    ("play", "red: insert R-SOF-1 1708"),
    ("play", "blue: insert B-SOF-1 0505"),
    ("play", "red: recon R-SOF-1 1807"),
    ("play", "blue: recon B-SOF-1 0506"),
    ("play", "red: io disrupt-c2 space:blue:c2"),
    ("play", "blue: io assure-c2 B-DDG-1801"),
    ("play", "red: isr 1707"),
    ("play", "blue: isr 0506"),
    ("play", "blue: strike R-052D-1 salvos=B-HF3-1:hf3,B-PGG-619:hf3"),
    ("play", "red: shields R-052D-1:3"),
    ("play", "red: strike B-SQ-CCK salvos=R-PHL-1:phl16,R-PHL-1:phl16"),
    ("play", "blue: shields B-SQ-CCK:2"),
    ("play", "red: attack 0506 with=R-CAB-1,R-MAR-1"),
    ("play", "blue: defensive-fire"),
    ("end-turn", "umpire: advance"),
]


def tutorial_turn() -> Transcript:
    """The scripted first turn of the quickstart notebook (``owsnb.load("tutorial", seed=1)``)."""
    game = fixed_salt(owsnb.load("tutorial", seed=1, save=False), "golden")
    t = Transcript(
        game,
        "tutorial, the quickstart notebook's scripted first turn",
        [
            ("dice seed", 1),
            ("secret salt", "golden"),
            ("script", "notebooks/00-quickstart.ipynb"),
            ("regenerate", REGENERATE),
        ],
    )

    def done() -> None:
        if not game.clock.acting:
            raise AssertionError(f"nobody acts at {game.clock}: the script cannot pass")
        t.submit(f"{game.clock.acting[0]}: done")

    for op, *arg in TUTORIAL_TURN:
        if op == "until-step":
            while game.clock.step != arg[0]:
                done()
        elif op == "submit":
            t.submit(arg[0])
        elif op == "undo":
            t.undo()
        elif op == "play":
            o = owsnb.Order.parse(arg[0])
            while not (o.side in game.clock.acting and o.verb in game.legal_orders(o.side).verbs):
                done()
            t.submit(o)
        elif op == "end-turn":
            while game.clock.turn == 1 and not game.is_over():
                t.submit(f"{game.clock.acting[0]}: done" if game.clock.acting else arg[0])
        else:  # pragma: no cover - a typo in the script above
            raise ValueError(f"unknown script step {op!r}")
    return t


def notebook_orders(path: Path = QUICKSTART) -> list[str]:
    """The literal orders (``"side: verb ..."`` strings) of a notebook's code cells, in order,
    a repeat right after itself dropped (``until(x)``, ``preview(x)``, ``play(x)``)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        for m in re.finditer(r'(?<![fA-Za-z])"((?:blue|red|umpire): [^"]+)"', src):
            if not found or found[-1] != m.group(1):
                found.append(m.group(1))
    return found


GOLDEN: dict[str, Callable[[], Transcript]] = {
    **{name: (lambda name=name: playout(name)) for name in PLAYOUTS},
    "tutorial-turn": tutorial_turn,
}
"""Every golden transcript: its file is ``tests/golden/<name>.txt``."""


def path_of(name: str) -> Path:
    return HERE / f"{name}.txt"


def render(name: str) -> str:
    """The transcript *name* as it plays now."""
    return GOLDEN[name]().text()


def diff(name: str, text: str, limit: int = 60) -> str:
    """The first *limit* lines of the unified diff stored -> now ("" if equal)."""
    path = path_of(name)
    stored = path.read_text(encoding="utf-8") if path.exists() else ""
    if stored == text:
        return ""
    lines = list(
        difflib.unified_diff(
            stored.splitlines(),
            text.splitlines(),
            f"tests/golden/{name}.txt (stored)",
            f"{name} (as it plays now)",
            lineterm="",
        )
    )
    more = f"\n... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more

"""Golden playthrough transcripts (issue 16): each bundled scenario's seeded random play-out and
the quickstart's scripted tutorial turn, replayed now and diffed against ``tests/golden/*.txt``.

A difference is a change of play — orders accepted or refused, events, what each side observes.
If your change means it, regenerate every transcript and commit the diff with your change, saying
why in the commit message:

    PYTHONPATH=. python -m tests.golden --update
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.golden import (
    GOLDEN,
    REGENERATE,
    ROOT,
    TUTORIAL_TURN,
    diff,
    notebook_orders,
    path_of,
    render,
)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_transcript_matches_the_stored_one(name: str) -> None:
    assert path_of(name).exists(), f"tests/golden/{name}.txt is missing; run: {REGENERATE}"
    changed = diff(name, render(name))
    assert not changed, (
        f"the {name} playthrough no longer matches tests/golden/{name}.txt. If your change "
        f"means this, regenerate with `{REGENERATE}` and commit the diff, saying why.\n{changed}"
    )


def test_the_tutorial_script_gives_the_quickstart_notebooks_orders() -> None:
    """The scripted turn is the notebook's: the same literal orders in the same order (a change
    of the notebook's play must be copied into ``TUTORIAL_TURN``)."""
    script = [step[1] for step in TUTORIAL_TURN if step[0] in ("submit", "play", "end-turn")]
    assert script == notebook_orders()


_FINGERPRINT = """
import hashlib, sys
from dataclasses import replace
import owsnb
from owsnb.kernel.codec import dumps
from tests.golden import PLAYOUTS, diff, render
for name, p in PLAYOUTS.items():
    g = owsnb.load(p.scenario, seed=p.seed, save=False)
    s = replace(g.initial, secret=g.initial.secret.set(salt="x"))
    print(name, "initial state", hashlib.sha256(dumps(s).encode()).hexdigest()[:16])
print("tutorial-turn", diff("tutorial-turn", render("tutorial-turn")) or "as stored")
"""


def test_play_does_not_depend_on_the_string_hash_seed() -> None:
    """Fresh processes with two ``PYTHONHASHSEED`` values give the same initial states (byte for
    byte, as a store saves them) and the stored tutorial turn: nothing iterates a set of strings
    where order matters (found so: OWS air combat marked its engaged aircraft in set order, TOCS
    set up its tables in set order)."""
    outs = []
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", _FINGERPRINT], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        outs.append(run.stdout)
    assert outs[0] == outs[1]
    assert outs[0].rstrip().endswith("tutorial-turn as stored"), outs[0][-3000:]

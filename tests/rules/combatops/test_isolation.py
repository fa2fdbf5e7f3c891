"""Rule sets never import one another; the rule set loads no UI module."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT


def _loaded_after(code: str) -> list[str]:
    prog = (
        f"import sys\n{code}\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith(('owsnb.', 'ipywidgets', 'ipyleaflet', "
        "'bqplot', 'IPython')))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", prog], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return out.stdout.split()


def test_importing_combatops_imports_no_other_rule_set_and_no_ui():
    mods = _loaded_after("import owsnb.rules.combatops")
    rules = {m.split(".")[2] for m in mods if m.startswith("owsnb.rules.") and m.count(".") >= 2}
    rules.discard("tables")  # owsnb.rules.tables: the rules layer's shared table reader
    assert rules == {"combatops"}, rules
    assert not [
        m
        for m in mods
        if m.startswith(("owsnb.widgets", "ipywidgets", "ipyleaflet", "bqplot", "IPython"))
    ]


def test_playing_a_scenario_imports_no_other_rule_set():
    mods = _loaded_after(
        "import owsnb\n"
        "g = owsnb.load('scenarios/combatops-blue-attack.yaml', save=False)\n"
        "[g.submit(f'{g.clock.acting[0]}: done') for _ in range(6)]\n"
        "g.view('red'); g.legal_orders(g.clock.acting[0])"
    )
    rules = {m.split(".")[2] for m in mods if m.startswith("owsnb.rules.") and m.count(".") >= 2}
    rules.discard("tables")  # owsnb.rules.tables: the rules layer's shared table reader
    assert rules == {"combatops"}, rules

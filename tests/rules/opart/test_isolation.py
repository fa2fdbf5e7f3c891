"""A rule set never imports another rule set (house rule; issue 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _modules_after(code: str) -> list[str]:
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _other_rulesets(mods: list[str]) -> list[str]:
    return [
        m
        for m in mods
        if m.startswith("owsnb.rules.")
        and not m.startswith("owsnb.rules.opart")
        and m != "owsnb.rules.tables"  # the rules layer's shared table reader, not a rule set
    ]


def test_importing_opart_imports_no_other_rule_set_and_no_widgets():
    mods = _modules_after("import owsnb.rules.opart")
    assert "owsnb.rules.opart" in mods
    assert _other_rulesets(mods) == []
    assert not [
        m for m in mods if m.startswith(("owsnb.widgets", "ipywidgets", "IPython", "ipyleaflet"))
    ]


def test_playing_the_scenario_in_the_app_imports_no_other_rule_set():
    mods = _modules_after(
        "import owsnb\nfrom owsnb.widgets import App\n"
        "g = owsnb.load('opart-kalinovka', seed=1, save=False)\n"
        "app = App(g, seat='umpire')\n"
        "side = g.clock.acting[0]\n"
        "g.submit(f'{side}: done')\n"
    )
    assert "owsnb.widgets.app" in mods and "owsnb.rules.opart" in mods
    assert _other_rulesets(mods) == [], json.dumps(_other_rulesets(mods))

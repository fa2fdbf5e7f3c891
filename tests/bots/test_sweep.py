"""Issue 22, deliver 4: sweeps take bots — ``plans={"blue": "greedy", "red": "search"}`` and the
CLI — and their results say which bot played each side and how each side stood at the end."""

from __future__ import annotations

import yaml

import owsnb.analysis as an
from owsnb.analysis.io import open_dataset
from owsnb.cli import main

TINY_SEARCH = {"bot": "search", "iterations": 4, "budget": None, "width": 3}


def test_a_sweep_with_a_bot_per_side_records_the_bots_and_the_standings() -> None:
    ds = an.sweep(
        "combatops-red-attack",
        seeds=range(2),
        plans={"blue": "greedy", "red": TINY_SEARCH},
        turns=1,
        workers=1,
        progress=False,
    )
    assert list(ds["plan"].values) == ["blue=greedy,red=search(budget=None,iterations=4,width=3)"]
    assert ds["bot"].sel(side="blue").item() == "greedy"
    assert ds["bot"].sel(side="red").item().startswith("search(")
    stand = ds["standing"].squeeze(["plan", "variant"])
    assert (
        stand.sel(side="blue") == -stand.sel(side="red")
    ).all()  # one side's lead is the other's
    assert (
        (ds["decision_p95"] >= 0).all() and (ds["turn"] == 2).all() and (ds["refused"] <= 2).all()
    )


def test_a_scripted_plan_against_bots_compares_in_one_dataset(tmp_path) -> None:
    """A YAML plan for one side, each bot in turn for the other (the notebook-05 shape)."""
    plan = tmp_path / "red-plan.yaml"
    plan.write_text(
        yaml.safe_dump(
            {"orders": [{"turn": 1, "step": "0.1", "side": "red", "order": "red: assign A 6"}]}
        )
    )
    plans = [{"red": str(plan), "blue": bot} for bot in ("pass", "random", "greedy")]
    ds = an.sweep(
        "combatops-red-attack", seeds=range(2), plans=plans, turns=1, workers=1, progress=False
    )
    assert list(ds["bot"].sel(side="blue").values) == ["pass", "random", "greedy"]
    assert set(ds["bot"].sel(side="red").values) == {"red-plan"}
    assert (ds["refused"] == 0).all()


def test_sweep_cli_takes_a_plan_per_side_and_a_search_budget(tmp_path, capsys) -> None:
    out = tmp_path / "bots.nc"
    argv = [
        "sweep",
        "combatops-red-attack",
        "--seeds",
        "0:1",
        "--turns",
        "1",
        "--workers",
        "1",
        "--plan",
        "blue=greedy,red=search",
        "--think",
        "0.05",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    ds = open_dataset(out)
    assert list(ds["bot"].values[0]) == ["greedy", "search(budget=0.05)"]
    assert "standing" in ds and "saved" in capsys.readouterr().out

"""History as xarray, accessor analyses, export round trips, branch comparison, sweeps."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import owsnb
import owsnb.analysis as an
from tests.conftest import DATA
from tests.properties.test_replay_properties import play


@pytest.fixture
def played():
    g = owsnb.load(DATA / "skirmish.yaml", seed=3, save=False)
    play(g, 3, 80)
    return g


def _fight(g):
    """Drive the skirmish to a firefight so the history has losses and detections."""
    for order in (
        "blue: move B-ARM-1 0503",
        "blue: done",
        "red: move R-ARM-1 0603",
        "red: done",
        "blue: done",
        "red: done",
    ):
        g.submit(order)
    for _ in range(3):
        g.submit("blue: done")
        g.submit("red: done")
        for side, u, t in (("blue", "B-ARM-1", "R-ARM-1"), ("red", "R-ARM-1", "B-ARM-1")):
            if g.unit(u).steps and g.unit(t).steps:
                g.submit(f"{side}: fire {u} {t}")
        g.submit("blue: done")
        g.submit("red: done")


def test_history_tracks_positions_steps_and_detections():
    g = owsnb.load(DATA / "skirmish.yaml", seed=21, save=False)
    _fight(g)
    ds = g.history()
    assert set(ds.sizes) >= {"time", "unit", "side"}
    assert ds.attrs["ruleset"] == "skirmish" and ds.attrs["seed"] == 21
    last = ds.isel(time=-1)
    for uid, u in g.units.items():
        assert int(last["steps"].sel(unit=uid)) == u.steps
        assert last["hex"].sel(unit=uid).item() == (g.state.map.label(u.hex) if u.hex else "")
        for side in ("blue", "red"):
            assert bool(last["detected"].sel(unit=uid, by=side)) == (side in u.seen_by)
    assert bool(ds["detected"].sel(unit="R-ARM-1", by="blue").any())
    first = ds.owsnb.time_to_first_detection()
    assert np.isnan(float(first.sel(unit="R-INF-1", by="blue")))
    assert float(first.sel(unit="R-ARM-1", by="blue")) > 0
    lost = ds.owsnb.losses().isel(time=-1)
    start_red = sum(u.max_steps for u in g.initial.units.values() if u.side == "red")
    assert int(lost.sel(unit_side="red")) == start_red - sum(
        u.steps for u in g.units.values() if u.side == "red"
    )


def test_side_history_holds_only_what_the_side_detected(played):
    ds = played.history(side="blue")
    red_units = [u for u in played.initial.units if played.initial.units[u].side == "red"]
    listed = set(ds["unit"].values)
    for t in range(ds.sizes["time"]):
        st = played.state_at(int(ds["seq"][t]))
        for uid in red_units:
            seen = "blue" in st.units[uid].seen_by
            if uid not in listed:  # never seen: not even its id is in blue's history
                assert not seen
                continue
            assert bool(ds["present"].isel(time=t).sel(unit=uid)) == seen
    assert ds.attrs["seed"] == -1  # a side's history carries no dice state


def test_by_turn_and_force_ratio(played):
    bt = played.history().owsnb.by_turn()
    assert list(bt["turn"].values) == sorted(set(int(t) for t in played.history()["turn"].values))
    ratio = played.history().owsnb.force_ratio("blue", "red")
    assert float(ratio.isel(time=0)) == pytest.approx(6 / 6)


@pytest.mark.parametrize("fmt", ["netcdf", "zarr"])
def test_export_and_reload(played, tmp_path, fmt):
    from owsnb.analysis.io import open_dataset, save

    ds = played.history()
    back = open_dataset(save(ds, tmp_path / ("h.nc" if fmt == "netcdf" else "h.zarr")))
    xr.testing.assert_equal(
        back[["steps", "q", "r", "detected"]], ds[["steps", "q", "r", "detected"]]
    )
    assert back.attrs["scenario"] == "skirmish-test"


def test_events_and_annotations_tables(played):
    played.annotate("contact report", hex="0503", author="analyst")
    ev = an.events_table(played)
    assert len(ev) == sum(1 for e in played.events if e.kind != "rng")
    red = an.events_table(played, "red")
    assert len(red) < len(ev) or all(v in ("all", "red") or "red" in v for v in red["visible_to"])
    ann = an.annotations_table(played)
    assert list(ann["hex"]) == ["0503"] and list(ann["author"]) == ["analyst"]


def test_compare_branches_on_turns():
    g = owsnb.load(DATA / "skirmish.yaml", seed=21, save=False)
    _fight(g)
    base = g.fork(at=8)
    play(base, 5, 30)
    ds = an.compare({"played": g, "what-if": base})
    assert list(ds["branch"].values) == ["played", "what-if"]
    assert "turn" in ds.sizes
    t1 = ds["steps"].sel(turn=1)
    assert (t1.sel(branch="played") == t1.sel(branch="what-if")).all()  # same start


def test_sweep_is_deterministic_and_shaped():
    kw = dict(
        seeds=range(3),
        options={"sudden_death": [False, True]},
        plans=["random", "pass"],
        workers=1,
        progress=False,
    )
    a = an.sweep(DATA / "skirmish.yaml", **kw)
    b = an.sweep(DATA / "skirmish.yaml", **kw)
    assert dict(a.sizes) == {"plan": 2, "variant": 2, "seed": 3, "side": 2}
    xr.testing.assert_equal(a, b)
    assert (a["steps_lost"].sel(plan="pass") == 0).all()  # nobody fires when everyone passes
    assert bool(a["over"].all())


@pytest.mark.slow
def test_sweep_in_worker_processes_matches_in_process(monkeypatch):
    monkeypatch.setenv("OWSNB_RULESETS", "skirmish=tests.rulesets.skirmish:RULESET")
    a = an.sweep(DATA / "skirmish.yaml", seeds=range(4), workers=2, progress=False)
    b = an.sweep(DATA / "skirmish.yaml", seeds=range(4), workers=1, progress=False)
    xr.testing.assert_equal(a, b)


def test_sweep_cli_writes_a_dataset(tmp_path, capsys):
    from owsnb.analysis.io import open_dataset
    from owsnb.cli import main

    out = tmp_path / "s.nc"
    assert (
        main(
            [
                "sweep",
                str(DATA / "skirmish.yaml"),
                "--seeds",
                "0:3",
                "--plan",
                "pass",
                "--workers",
                "1",
                "--option",
                "sudden_death=false,true",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ds = open_dataset(out)
    assert dict(ds.sizes) == {"plan": 1, "variant": 2, "seed": 3, "side": 2}

"""Research tools on a bundled OWS scenario (the packaged strait): history facts, losses by domain,
hidden information in a side's history, sweeps through the 9.2.1 shot calculus, branches."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

import owsnb
import owsnb.analysis as an
from owsnb.rules.ows import strike
from owsnb.rules.ows.examples import HERE, STRAIT
from owsnb.testing import find_leaks, hidden_tokens

BASE = yaml.safe_load(STRAIT.read_text())
SEEN = {"Type055-1": {"seen_by": ["blue"]}, "Type054-1": {"seen_by": ["blue"]}}


def strait(units=None, options=None, **top):
    """The packaged strait as a dict, with per-unit overrides."""
    d = copy.deepcopy(BASE)
    d["catalogs"] = [str(HERE / c) for c in d["catalogs"]]
    for u in d["units"]:
        u.update((units or {}).get(u["id"], {}))
    if options:
        d["options"] = {**d.get("options", {}), **options}
    d.update(top)
    return d


def _struck(seed=5):
    g = owsnb.load(strait(SEEN), seed=seed, save=False)
    g.submit("umpire: advance 6.B.2")
    strike.resolve(g, "Type055-1", ["DDG-1:tlam", "DDG-1:tlam"], grey_shields=0)
    return g


def test_ows_history_records_munitions_shields_dashboard_and_losses_by_domain():
    g = _struck()
    ds = g.history()
    first, last = ds.isel(time=0), ds.isel(time=-1)
    assert (
        int(first["unit_salvos_left"].sel(unit="DDG-1"))
        - int(last["unit_salvos_left"].sel(unit="DDG-1"))
        == 2
    )
    assert last["unit_domain"].sel(unit="Type055-1").item() == "maritime"
    assert last["unit_domain"].sel(unit="F35-CAP").item() == "air"
    assert float(first["side_space_c2"].sel(side="blue")) == 3  # the space dashboard (2.1.3)
    lost = g.initial.units["Type055-1"].steps - g.unit("Type055-1").steps
    by_domain = ds.owsnb.losses("domain").isel(time=-1)
    assert int(by_domain.sel(domain="maritime")) == lost
    assert int(by_domain.sum()) == lost and set(by_domain["domain"].values) >= {
        "air",
        "land",
        "maritime",
    }
    assert int(ds.owsnb.losses().isel(time=-1).sel(unit_side="red")) == lost


def test_8_3_1_fixed_installations_count_as_detected_from_the_start():
    ds = owsnb.load(strait(), seed=1, save=False).history()
    first = ds.owsnb.time_to_first_detection()
    assert float(first.sel(unit="F35-BASE", by="red")) == 0  # a permanent squadron base (8.3.1)
    assert np.isnan(float(first.sel(unit="DDG-1", by="red")))
    assert np.isnan(float(first.sel(unit="DDG-1", by="blue")))  # never "detected" by its own side


def test_a_sides_history_names_no_undetected_unit_and_no_dice_seed():
    g = owsnb.load(strait(options={"face_down": True}), seed=2, save=False)
    g.submit("umpire: advance 5.1")
    ds = g.history(side="red")
    tokens = hidden_tokens(g.state, "red", g.ruleset)
    assert "DDG-1" in tokens
    text = [
        list(map(str, ds["unit"].values)),
        ds["unit_kind"].values.tolist(),
        ds["hex"].values.tolist(),
        {k: str(v) for k, v in ds.attrs.items()},
    ]
    for name in ds.data_vars:
        if ds[name].dtype.kind in "UO":
            text.append(ds[name].values.tolist())
    assert find_leaks(text, tokens) == []
    aliases = [u for u in ds["unit"].values if str(u).startswith("unknown-")]
    assert aliases and all(ds["unit_kind"].sel(unit=a).item() == "unknown" for a in aliases)
    assert ds.attrs["seed"] == -1


def test_planar_maps_fill_x_y_not_lon_lat():
    ds = owsnb.load(strait(), seed=1, save=False).history()
    assert bool(ds["lon"].isnull().all()) and bool(ds["x_km"].notnull().any())


def test_losses_and_first_detection_work_on_turns_and_branches():
    g = _struck(seed=6)
    f = g.fork(at=10)
    ds = an.compare({"struck": g, "quiet": f})
    lost = ds.owsnb.losses()
    assert set(lost.dims) == {"branch", "turn", "unit_side"}
    assert int(lost.sel(branch="quiet").max()) == 0
    assert int(lost.sel(branch="struck", unit_side="red").max()) == 2 - g.unit("Type055-1").steps
    first = ds.owsnb.time_to_first_detection()
    assert (
        float(first.sel(branch="struck", unit="Type055-1", by="blue")) == 1
    )  # turn 1 (seen at setup)


def test_losing_sight_of_a_unit_is_not_a_loss():
    import xarray as xr

    ds = xr.Dataset(
        {
            "steps": (("time", "unit"), [[2, 1], [2, 1], [0, 1]]),
            "present": (("time", "unit"), [[True, True], [False, True], [False, True]]),
        },
        coords={"unit": ["a", "b"], "unit_side": ("unit", ["red", "red"]), "time": [0, 1, 2]},
    )
    assert ds.owsnb.losses().sel(unit_side="red").values.tolist() == [0, 0, 0]


def test_sweep_answers_the_shot_calculus_when_a_plan_passes(tmp_path):
    """9.2.1: the defender must answer a strike with 'shields'; a passing plan commits none."""
    plan = tmp_path / "strike.yaml"
    plan.write_text(
        yaml.safe_dump(
            {
                "orders": [
                    {
                        "turn": 1,
                        "step": "6.B.2",
                        "side": "blue",
                        "order": "blue: strike Type055-1 salvos=DDG-1:tlam,DDG-1:tlam",
                    }
                ],
                "fallback": "pass",
            }
        )
    )
    ds = an.sweep(strait(SEEN), seeds=range(6), plans=[plan], turns=1, workers=1, progress=False)
    assert int(ds["refused"].sum()) == 0
    lost = ds["steps_lost"].sel(plan="strike", side="red").values.ravel()
    assert set(lost) <= {0, 1, 2} and lost.max() > 0
    assert (ds["steps_lost"].sel(side="blue") == 0).all()


def test_sweep_random_plans_play_ows_without_errors():
    ds = an.sweep(strait(), seeds=range(2), plans=["random"], turns=1, workers=1, progress=False)
    assert (ds["orders"] > 0).all() and ds.attrs["scenario"] == "ows-strait"


def test_sweep_on_a_dask_cluster_matches_local_processes():
    # dask is the optional "research" extra (pyproject.toml): without it there is no cluster to test
    pytest.importorskip("dask.distributed", reason="the research extra (dask) is not installed")
    from dask.distributed import Client, LocalCluster

    kw = dict(seeds=range(2), plans=["pass"], turns=1, progress=False)
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cl,
        Client(cl) as c,
    ):
        a = an.sweep(strait(SEEN), client=c, **kw)
    b = an.sweep(strait(SEEN), workers=1, **kw)
    import xarray as xr

    xr.testing.assert_equal(a, b)


def test_the_bundled_tutorial_history_side_views_and_sweep():
    """Items 1-3 of issue 8 on the OWS tutorial: facts, a leak-free side history, a sweep."""
    from owsnb.testing import random_playout

    g = owsnb.load("tutorial", seed=2, save=False)
    random_playout(g, max_orders=120, seed=3, check_views=False)
    ds = g.history()
    assert set(ds["unit_domain"].isel(time=0).values) >= {"air", "land", "maritime", "sof"}
    assert bool(ds["lon"].notnull().any())  # a geographic map: lon/lat filled
    lost = ds.owsnb.losses("domain").isel(time=-1)
    assert int(lost.sum()) == int(ds.owsnb.losses().isel(time=-1).sum())
    for side in ("blue", "red"):
        view = g.history(side=side)
        tokens = hidden_tokens(g.state, side, g.ruleset)
        never = sorted(
            {u for u in g.units if g.unit(u).side != side} - set(map(str, view["unit"].values))
        )
        assert not bool(ds["detected"].sel(by=side, unit=never).any())  # absent = never detected
        assert (
            find_leaks(
                [list(map(str, view["unit"].values)), view["unit_kind"].values.tolist()],
                tokens - set(map(str, view["unit"].values)),
            )
            == []
        )
    sw = an.sweep("tutorial", seeds=range(2), plans=["random"], turns=1, workers=1, progress=False)
    assert int(sw["refused"].sum()) == 0 and (sw["orders"] > 0).all()

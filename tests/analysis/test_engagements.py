"""Engagement sweeps (owsnb.analysis.engagement_sweep): grids, exact columns, seeds, export, plots."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import owsnb.analysis as an
from owsnb.rules.ows import strike


def _within(ds, var, k=3.0):
    """Every Monte Carlo mean within k sigma of the exact mean."""
    diff = abs(ds[f"{var}_mean"] - ds[f"{var}_mean_exact"])
    return bool((diff <= k * ds[f"{var}_stderr"] + 1e-12).all())


def test_strike_sweep_over_grey_shields_has_grid_target_and_outcome_dims():
    ds = an.engagement_sweep(
        "strike",
        salvos=["d10"] * 3,
        red_shield=5,
        steps=2,
        grid={"grey_shields": range(0, 7), "excess": ["demote", "layered"]},
        n=20_000,
        seed=3,
        progress=False,
    )
    assert dict(ds["hits"].sizes) == {
        "grey_shields": 7,
        "excess": 2,
        "target": 1,
        "outcome": 7,
    }  # 3 salvos x at most 2 hits (d10 vs 5)
    assert list(ds["grey_shields"].values) == list(range(7)) and list(ds["excess"].values) == [
        "demote",
        "layered",
    ]
    assert np.allclose(ds["hits"].sum("outcome"), 1) and np.allclose(
        ds["hits_exact"].sum("outcome"), 1
    )
    for var in ("hits", "steps_lost", "killed"):
        assert _within(ds, var), var
    # the exact column is the rule code's preview, cell by cell
    pv = strike.preview(None, "target", ["d10"] * 3, grey_shields=4, red_shield=5, excess="layered")
    cell = ds["hits_exact"].sel(grey_shields=4, excess="layered", target="target")
    assert [float(pv.hits[k]) for k in range(7)] == pytest.approx(cell.values.tolist())
    # more shields, fewer kills (9.2.1): the exact odds fall monotonically
    p = ds["killed_mean_exact"].sel(excess="demote", target="target").values
    assert (np.diff(p) <= 0).all() and p[0] > p[-1]
    assert (
        ds.attrs["engagement"] == "strike"
        and ds.attrs["replications"] == 20_000
        and "9.2.1" in ds.attrs["rules"]
    )


def test_100k_replications_agree_with_the_exact_preview_outcome_by_outcome():
    ds = an.engagement_sweep(
        "strike",
        salvos=["d10", "d12", "d8"],
        grey_shields=[7, 6, 6, 5],
        red_shield=4,
        cap=1,
        steps=2,
        n=100_000,
        seed=4,
        progress=False,
    )
    f, ex = ds["hits"].isel(target=0), ds["hits_exact"].isel(target=0)
    sigma = np.sqrt(ex * (1 - ex) / 100_000)
    assert bool((abs(f - ex) <= 3 * sigma + 1e-12).all())
    assert float(ex.sel(outcome=0)) > 0 and _within(ds, "killed")


def test_same_seed_same_dataset_other_seed_differs():
    kw = dict(
        salvos=["d10"] * 2, red_shield=5, grid={"grey_shields": [1, 2]}, n=5_000, progress=False
    )
    a, b = an.engagement_sweep("strike", seed=7, **kw), an.engagement_sweep("strike", seed=7, **kw)
    xr.testing.assert_identical(a, b)
    c = an.engagement_sweep("strike", seed=8, **kw)
    assert not np.array_equal(a["hits"].values, c["hits"].values)
    xr.testing.assert_identical(a["hits_exact"], c["hits_exact"])


def test_keep_returns_every_replication_consistent_with_the_frequencies():
    ds = an.engagement_sweep(
        "strike",
        salvos=["d10"] * 2,
        red_shield=5,
        grey_shields=2,
        n=3_000,
        seed=1,
        keep=True,
        chunk=1_000,
        progress=False,
    )
    smp = ds["hits_sample"].isel(target=0)
    assert smp.sizes["replication"] == 3_000
    for v in ds["outcome"].values:
        assert float((smp == v).mean()) == pytest.approx(
            float(ds["hits"].isel(target=0).sel(outcome=v))
        )


def test_detection_sweep_cooperating_asw_sensors_reach_the_d12_cap():
    dice = {1: ["d10"], 2: ["d10", "d10"], 3: ["d10", "d10", "d8"], 4: ["d10"] * 4}
    ds = an.engagement_sweep(  # the D12 cap: ASW and stealth aircraft (8.5.3)
        lambda sensors, **kw: an_engagement(dice[sensors], limit="d12", **kw),
        signature=8,
        grid={"sensors": [1, 2, 3, 4]},
        n=20_000,
        seed=2,
        progress=False,
    )
    p = ds["detected_mean_exact"].isel(target=0).values
    assert p.tolist() == pytest.approx(
        [3 / 10, 5 / 12, 5 / 12, 5 / 12]
    )  # d10, then capped at D12 (8.5.3)
    assert _within(ds, "detected")


def an_engagement(dice, **kw):
    from owsnb.rules.ows.montecarlo import detection_engagement

    return detection_engagement(dice=dice, **kw)


def test_unknown_engagement_and_missing_rule_module_are_clear_errors():
    with pytest.raises(ValueError, match="unknown engagement"):
        an.engagement_sweep("duel", n=10, progress=False)
    from importlib.util import find_spec

    if find_spec("owsnb.rules.ows.ground") is None:
        with pytest.raises(ImportError, match="ground combat"):
            an.engagement_sweep("gcat", n=10, progress=False)


def test_sweep_exports_to_netcdf_and_back(tmp_path):
    ds = an.engagement_sweep(
        "strike",
        salvos=["d10"] * 3,
        red_shield=5,
        grid={"grey_shields": [0, 5]},
        n=2_000,
        seed=1,
        progress=False,
    )
    back = an.open_dataset(an.save(ds, tmp_path / "strike.nc"))
    xr.testing.assert_allclose(
        back[["hits", "hits_exact", "killed_mean"]], ds[["hits", "hits_exact", "killed_mean"]]
    )
    assert back.attrs["seed"] == 1


def test_plot_odds_draws_exact_line_and_monte_carlo_points():
    import matplotlib

    matplotlib.use("Agg")
    ds = an.engagement_sweep(
        "strike",
        salvos=["d10"] * 3,
        red_shield=5,
        steps=2,
        grid={"grey_shields": range(0, 5)},
        n=2_000,
        seed=1,
        progress=False,
    )
    ax = an.plot_odds(ds, "killed")
    assert ax.get_ylabel() == "P(killed)" and ax.get_xlabel() == "grey shields"
    line = ax.get_lines()[0]
    assert np.allclose(line.get_ydata(), ds["killed_mean_exact"].isel(target=0).values)
    ax2 = an.plot_odds(ds, "hits")
    assert ax2.get_ylabel() == "mean hits"


def test_progress_bar_runs_over_chunks(capsys):
    ds = an.engagement_sweep("strike", salvos=["d10"], n=2_500, chunk=1_000, seed=0, progress=True)
    assert ds.attrs["replications"] == 2_500
    assert "owsnb engagements" in capsys.readouterr().err


def test_gcat_sweep_over_odds_columns_and_die_changes():
    ds = an.engagement_sweep(
        "gcat",
        shield=4,
        grid={"odds": ["1:2", "1:1", "2:1", "3:1"], "die_change": [-1, 0, 1]},
        n=20_000,
        seed=5,
        progress=False,
    )
    assert dict(ds["defender_steps"].sizes) == {
        "odds": 4,
        "die_change": 3,
        "target": 1,
        "outcome": 5,
    }
    for var in ("defender_steps", "attacker_steps", "exploit", "row"):
        assert _within(ds, var), var
    d = ds["defender_steps_mean_exact"].isel(target=0)
    assert (d.diff("odds") >= 0).all() and (
        d.diff("die_change") >= 0
    ).all()  # the table is monotone


def test_engagements_cli_prints_odds_and_saves_a_dataset(tmp_path, capsys):
    from owsnb.cli import main

    out = tmp_path / "odds.nc"
    assert (
        main(
            [
                "engagements",
                "strike",
                "--set",
                "salvos=d10,d10,d10",
                "--set",
                "red_shield=5",
                "--set",
                "steps=2",
                "--grid",
                "grey_shields=0,5",
                "--n",
                "5000",
                "--seed",
                "3",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "killed_mean_exact" in text and "saved" in text
    ds = an.open_dataset(out)
    assert list(ds["grey_shields"].values) == [0, 5] and ds.attrs["replications"] == 5_000
    pv = strike.preview(None, "target", ["d10"] * 3, grey_shields=5, red_shield=5)
    assert float(ds["hits_exact"].sel(grey_shields=5, target="target", outcome=0)) == pytest.approx(
        float(pv.hits[0])
    )

"""The debrief (owsnb.analysis.debrief) of a whole tutorial game, checked against the game; the
history Dataset's CF-style attributes; ``owsnb debrief`` on the command line."""

from __future__ import annotations

import base64
import html
import io
import re
from pathlib import Path

import pytest

import owsnb
from owsnb.analysis.debrief import QUIET, debrief, event_line, turn_ends
from owsnb.kernel.state import UMPIRE


def _whole_tutorial(save=False):
    from tests.scenario.test_bundled_scenarios import briefing_orders, play_script

    game = owsnb.load("tutorial", seed=1, save=save)
    play_script(game, briefing_orders("tutorial"))
    game.annotate("Red is ashore: was the destroyer worth it?", hex="0506", tags=["assessment"])
    game.annotate("Blue alone: the HF-3 salvos went to the destroyer", side="blue")
    while not game.is_over():
        acting = game.clock.acting
        game.submit(f"{acting[0]}: done" if acting else "umpire: advance")
    return game


@pytest.fixture(scope="module")
def played():
    game = _whole_tutorial()
    return game, debrief(game)


def _section(page: str, turn: int) -> str:
    start = page.index(f"<h3 id='turn-{turn}'>")
    end = page.find("<h3 id='turn-", start + 10)
    return page[start : end if end > 0 else page.index("<h2>Annotations")]


def test_the_debrief_has_a_map_and_what_each_side_saw_for_every_turn_played(played) -> None:
    game, page = played
    spans = [s for s in turn_ends(game.log(UMPIRE)) if s[0] <= game.state.scenario["turns"]]
    assert [t for t, _, _ in spans] == [1, 2]
    for turn, a, b in spans:
        part = _section(page, turn)
        end = game.state_at(b)
        on_map = [u for u in end.units.values() if u.hex is not None]
        assert part.count("<circle") >= len(on_map)
        for u in on_map:  # every unit where it stood at the end of the turn
            assert (
                f"<title>{html.escape(u.id)} — " in part
                and html.escape(end.map.label(u.hex)) in part
            )
        for side in game.state.sides:
            seen = [e for e in game.log(side) if a <= e.seq <= b and e.kind not in QUIET]
            title = html.escape(game.state.sides[side].title)
            assert f"What {title} saw</b>: {len(seen)} events" in part
    assert "<h3 id='turn-3'>" not in page  # the clock moving on as the game ends: no turn played
    assert "the game is over" in page


def test_each_side_reads_only_the_events_it_saw(played) -> None:
    game, page = played
    part = _section(page, 1)
    blue_list = part.split("What Blue (Taiwan) saw", 1)[1].split("What Red (PLA) saw", 1)[0]
    red_only = [
        e
        for e in game.log(UMPIRE)
        if e.kind == "die" and not e.visible("blue") and e.visible("red") and e.seq < 240
    ]
    assert red_only, "the scan would prove nothing"
    for e in red_only:
        line = html.escape(event_line(e, game.state))
        assert line in part and line not in blue_list


def test_the_debrief_shows_the_annotations_as_text_and_the_final_standing(played) -> None:
    game, page = played
    assert "Red is ashore: was the destroyer worth it?" in page
    assert "{&#x27;" not in page and "{'text'" not in page  # no raw dicts
    standing = game.ruleset.guide().standing(game.view(UMPIRE))
    assert standing["final"] and html.escape(standing["text"]) in page
    assert "<b>Result:</b>" in page


def test_the_debrief_is_self_contained_and_its_exports_open(played) -> None:
    """No script, no link out; the history (NetCDF) and the tables (CSV) are in the file."""
    import pandas as pd
    import xarray as xr

    game, page = played
    assert "<script" not in page
    assert not re.search(r"(src|href)=['\"](https?:|//)", page)
    links = dict(re.findall(r"download='([^']+)' href='data:[^;]+;base64,([^']+)'", page))
    assert set(links) == {
        "tutorial-history.nc",
        "tutorial-history.csv",
        "tutorial-events.csv",
        "tutorial-annotations.csv",
    }
    ds = xr.load_dataset(
        io.BytesIO(base64.b64decode(links["tutorial-history.nc"])), engine="h5netcdf"
    )
    assert ds["steps"].attrs["units"] == "1" and "long_name" in ds["q"].attrs
    assert set(ds["turn"].values) >= {1, 2}
    notes = pd.read_csv(io.BytesIO(base64.b64decode(links["tutorial-annotations.csv"])))
    assert list(notes["text"])[:1] == ["Red is ashore: was the destroyer worth it?"]
    events = pd.read_csv(io.BytesIO(base64.b64decode(links["tutorial-events.csv"])))
    assert len(events) == sum(1 for e in game.log(UMPIRE) if e.kind != "rng")


def test_history_variables_carry_units_and_long_names() -> None:
    """CF-style attributes on every variable and coordinate; the terse ones explained."""
    game = owsnb.load("tutorial", seed=1, save=False)
    ds = game.history(every="turn")
    for name in ds.variables:
        assert ds[name].attrs.get("long_name"), name
    assert ds["q"].attrs["units"] == "1" and "axial" in ds["q"].attrs["long_name"]
    assert "description" in ds["r"].attrs and "off-map box" in ds["box"].attrs["long_name"]
    assert "known to the recorded side" in ds["present"].attrs["long_name"]
    assert (
        ds["lon"].attrs["units"] == "degrees_east" and ds["turn"].attrs["long_name"] == "game turn"
    )
    assert ds.owsnb.losses().attrs["long_name"] == "steps lost since first seen"


def test_owsnb_debrief_on_the_command_line(tmp_path: Path) -> None:
    from owsnb.cli import main

    game = owsnb.load("tutorial", seed=1, save=tmp_path / "g.owsnb")
    game.submit("blue: done")
    game.annotate("a note for the record")
    out = tmp_path / "d.html"
    assert main(["debrief", str(tmp_path / "g.owsnb"), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "a note for the record" in text
    assert "Debrief — Tutorial: the Taiwan Strait" in text

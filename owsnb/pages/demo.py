"""The solo demo: the seat dashboard opened without a seat link (the Binder badge).

Choose a bundled scenario (default ``tutorial``), play it here as the umpire (solo study) or
hot-seat, autosaved under ``games_dir()/demo`` so a reload or a kernel restart can resume it. The
page only loads the game and shows :class:`owsnb.App`; the rules stay in the rule set.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import secrets
from pathlib import Path
from typing import Any

import ipywidgets as W

from owsnb.pages.seat import PAGE_MAP_HEIGHT, message

__all__ = ["DemoPage", "demo_dir", "DEMO_INTRO", "SEATS", "HOTSEAT_MARK"]


def demo_dir() -> Path:
    """Where the seat dashboard's demo games are autosaved: ``games_dir()/demo`` (this session's
    ``$OWSNB_HOME``; on Binder it lasts as long as the session)."""
    from owsnb.api import games_dir

    return games_dir() / "demo"


DEMO_INTRO = (
    "This link holds no seat, so this page offers a <b>solo demo</b>: a bundled scenario played "
    "here, on this machine only — as the <b>umpire</b> (solo study: you see everything and give "
    "every side's orders) or <b>hot-seat</b> (the sides take turns at one screen; the table is "
    "hidden while it changes hands). A seminar needs the umpire's links instead: the umpire runs "
    "<code>owsnb serve</code> and hands each player a link ending in "
    "<code>?game=…&amp;token=…</code>; each seat then sees only what its side may know. The demo "
    "is saved as you play: after a reload or a kernel restart, resume it here."
)

DEMO_MAP_HEIGHT = "max(420px, calc(100vh - 146px))"
"""The map's height in the demo: a window less the header, the map's bar and the demo's line."""

HOTSEAT_MARK = "-hotseat"
"""The end of a hot-seat game's file name (it resumes behind the curtain)."""

SEATS = {
    "umpire": "umpire · solo study (sees everything)",
    "hot-seat": "hot-seat · the sides take turns",
}


class DemoPage(W.VBox):
    """The seat dashboard without a seat link: a solo game of a bundled scenario, played here.

    Start loads the chosen scenario with ``owsnb.load(name, seed=…)``, autosaved to a new file
    under :func:`demo_dir`; Resume reopens a saved one with ``owsnb.resume``. Either shows
    ``owsnb.App`` on the chosen seat: ``"umpire"`` (solo study; the App's seat switch looks
    through each side's eyes) or ``"hot-seat"`` (the side that acts first; the switch offers the
    sides only and draws the curtain between them). A hot-seat game's file says so
    (``…-hotseat.owsnb``): it resumes as hot-seat, behind the curtain, whatever seat is chosen —
    never in the umpire's view, which would show each side's hidden units to whoever sits at the
    screen (an umpire's game may resume as hot-seat, behind the curtain too). Problems (a
    broken scenario, a damaged file) are shown on the page, which stays as it was.

    Args:
        scenarios: the names offered (default: every bundled scenario).
        default: the scenario chosen at first (``"tutorial"``).
        seed: the dice seed shown at first (default: a fresh one; the game records it).
        folder: where games are saved (default :func:`demo_dir`).
        app_options: passed on to ``owsnb.App`` (e.g. ``map_height``).

    Example:
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> page = DemoPage(["tutorial", "sandbox"], seed=7, folder=tmp.name)
        >>> page.scenario.value, page.seat.value, page.seed.value, page.app is None
        ('tutorial', 'umpire', 7, True)
        >>> page.start_button.description, page.resume_row.layout.display  # nothing saved yet
        ('Start', 'none')
        >>> tmp.cleanup()
    """

    def __init__(
        self,
        scenarios: list[str] | None = None,
        *,
        default: str = "tutorial",
        seed: int | None = None,
        folder: str | os.PathLike | None = None,
        **app_options: Any,
    ):
        from owsnb.scenario import list_scenarios
        from owsnb.widgets.controls import button

        names = list(scenarios) if scenarios is not None else list_scenarios()
        self.folder = Path(folder) if folder is not None else demo_dir()
        self.app_options = app_options
        self.game: Any = None
        self.app: Any = None
        self.intro = message("Solo demo — no seat in this link", DEMO_INTRO)
        wide = {"description_width": "initial"}
        self.scenario = W.Dropdown(
            options=names,
            value=default if default in names else (names[0] if names else None),
            description="scenario",
            style=wide,
        )
        self.seat = W.ToggleButtons(
            options=[(label, key) for key, label in SEATS.items()],
            value="umpire",
            tooltips=["see everything, give every side's orders", "pass the screen between sides"],
            style={"button_width": "auto"},
        )
        self.seed = W.IntText(
            value=secrets.randbelow(1_000_000) if seed is None else seed,
            description="dice seed",
            style=wide,
            layout=W.Layout(width="180px"),
        )
        self.start_button = button("Start", self.start, icon="play", style="primary")
        self.saved = W.Dropdown(description="saved demo", style=wide)
        self.resume_button = button("Resume", self.resume, icon="folder-open")
        self.resume_row = W.HBox([self.saved, self.resume_button])
        self.status = W.HTML()
        self.chooser = W.VBox(
            [
                W.HBox([self.scenario, self.seed, self.start_button]),
                W.HBox([W.Label("seat"), self.seat], layout=W.Layout(align_items="center")),
                self.resume_row,
                self.status,
            ]
        )
        self.slot = W.Box(layout=W.Layout(width="100%"))
        super().__init__([self.intro, self.chooser, self.slot], layout=W.Layout(width="100%"))
        self.add_class("owsnb-demo")
        self.refresh_saved()

    def saved_games(self) -> list[Path]:
        """The demo games saved in :attr:`folder`, the most recent first."""
        if not self.folder.is_dir():
            return []
        files = self.folder.glob("*.owsnb")
        return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)

    def refresh_saved(self) -> None:
        """List the saved games in the Resume row (hidden when there are none)."""
        files = self.saved_games()
        self.saved.options = [
            (f"{p.stem} · saved {dt.datetime.fromtimestamp(p.stat().st_mtime):%d %b %H:%M}", p)
            for p in files
        ]
        self.saved.value = files[0] if files else None  # the most recent
        self.resume_row.layout.display = "" if files else "none"

    def start(self) -> Any:
        """Load the chosen scenario (autosaved to a new file) and show its table."""
        import owsnb

        name, seed = self.scenario.value, int(self.seed.value)
        if not name:
            self._problem("Choose a scenario first.")
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        mode = HOTSEAT_MARK if self.seat.value == "hot-seat" else ""
        path = self.folder / f"{name}-{stamp}-{seed}{mode}.owsnb"
        n = 1
        while path.exists():
            path = path.with_name(f"{name}-{stamp}-{seed}-{n}{mode}.owsnb")
            n += 1
        return self._open(
            f"Loading {name} (seed {seed})…", lambda: owsnb.load(name, seed=seed, save=path)
        )

    def resume(self, path: str | os.PathLike | None = None) -> Any:
        """Reopen a saved demo game (default: the one chosen in the Resume row)."""
        import owsnb

        target = Path(path) if path is not None else self.saved.value
        if target is None:
            self._problem("No saved demo game to resume.")
            return None
        # a hot-seat game never resumes in the umpire's view (another may resume as hot-seat)
        hot = Path(target).stem.endswith(HOTSEAT_MARK) or self.seat.value == "hot-seat"
        return self._open(
            f"Resuming {Path(target).name}…", lambda: owsnb.resume(target), hot_seat=hot
        )

    def _open(self, doing: str, make: Any, hot_seat: bool | None = None) -> Any:
        from owsnb.kernel.errors import OwsnbError

        self.start_button.disabled = self.resume_button.disabled = True
        self.status.value = f"<span style='font:13px system-ui'>{html.escape(doing)}</span>"
        try:
            game = make()
            hot = self.seat.value == "hot-seat" if hot_seat is None else hot_seat
            app = self._app(game, hot, resumed=hot_seat is not None)
        except (OwsnbError, OSError, ValueError, KeyError) as exc:
            self._problem(f"{type(exc).__name__}: {exc}")
            return None
        finally:
            self.start_button.disabled = self.resume_button.disabled = False
        if self.app is not None:
            self.app.close()
        self.game, self.app = game, app
        store = game.meta.get("store", "")
        self.status.value = ""
        self.chooser.layout.display = "none"
        self.intro.value = (
            "<div style='font:12px system-ui;color:#4b5563;white-space:nowrap;overflow:hidden;"
            "text-overflow:ellipsis'><b>Solo demo</b> · "
            f"{html.escape(str(game.meta.get('scenario', '')))} · seed "
            f"{html.escape(str(game.meta.get('seed', '')))} · saved as you play in "
            f"<code>{html.escape(str(store))}</code> · reload the page to resume it or start "
            "another; a seminar needs the umpire's seat links</div>"
        )
        self.slot.children = [app]
        return app

    def _app(self, game: Any, hot_seat: bool, resumed: bool = False) -> Any:
        from owsnb.kernel.state import UMPIRE
        from owsnb.widgets import App

        opts = dict(self.app_options)
        if opts.get("map_height") == PAGE_MAP_HEIGHT:  # the demo's line above the table too
            opts["map_height"] = DEMO_MAP_HEIGHT
        if hot_seat:
            first = (list(game.clock.acting) or list(game.sides))[0]
            app = App(game, seat=first, seats=tuple(game.sides), curtain=True, **opts)
            if resumed:  # whoever sits at the screen now: the table stays hidden until they click
                app.hide(first)
            return app
        return App(game, seat=UMPIRE, curtain=False, **opts)

    def _problem(self, text: str) -> None:
        self.status.value = (
            "<div style='font:13px system-ui;color:#c0392b'>Could not open the game: "
            f"{html.escape(text)}</div>"
        )

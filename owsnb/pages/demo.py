"""The solo demo: the seat dashboard opened without a seat link (the Binder badge).

Choose a bundled scenario (default ``tutorial``), play it here as the umpire (solo study),
hot-seat, or against the computer (your side against a bot of :mod:`owsnb.bots`), autosaved
under ``games_dir()/demo`` so a reload or a kernel restart can resume it. The page only loads
the game and shows :class:`owsnb.App`; the rules stay in the rule set.
"""

from __future__ import annotations

import datetime as dt
import html
import os
import re
import secrets
import threading
from functools import partial
from pathlib import Path
from typing import Any

import ipywidgets as W

from owsnb.pages.seat import PAGE_MAP_HEIGHT, message

__all__ = ["DemoPage", "demo_dir", "DEMO_INTRO", "SEATS", "HOTSEAT_MARK", "Referee", "versus_of"]


def demo_dir() -> Path:
    """Where the seat dashboard's demo games are autosaved: ``games_dir()/demo`` (this session's
    ``$OWSNB_HOME``; on Binder it lasts as long as the session)."""
    from owsnb.api import games_dir

    return games_dir() / "demo"


DEMO_INTRO = (
    "This link holds no seat, so this page offers a <b>solo demo</b>: a bundled scenario played "
    "here, on this machine only — as the <b>umpire</b> (solo study: you see everything and give "
    "every side's orders), <b>hot-seat</b> (the sides take turns at one screen; the table is "
    "hidden while it changes hands) or <b>against the computer</b> (you give one side's orders "
    "and see only what it may know; the computer plays the others). A seminar needs the "
    "umpire's links instead: the umpire runs <code>owsnb serve</code> and hands each player a link ending in "
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
    "computer": "against the computer",
}

VERSUS = re.compile(r"-vs-(?P<bot>[A-Za-z0-9_]+)-as-(?P<side>[A-Za-z0-9_]+)$")
"""The end of a game against the computer's file name: the bot and the student's side (it
resumes as such: the student's side only, the computer playing the others)."""


def versus_of(path: str | os.PathLike) -> tuple[str, str] | None:
    """``(bot, side)`` of a saved game against the computer, from its file name (else ``None``).

    >>> versus_of("tutorial-20260101-120000-7-vs-greedy-as-blue.owsnb")
    ('greedy', 'blue')
    >>> versus_of("tutorial-20260101-120000-7-hotseat.owsnb") is None
    True
    """
    m = VERSUS.search(Path(path).stem)
    return (m["bot"], m["side"]) if m else None


def scenario_sides(name: str) -> list[str]:
    """The sides of a bundled scenario, read from its file (without loading the game)."""
    import yaml

    from owsnb.scenario import find_scenario

    try:
        data = yaml.safe_load(Path(find_scenario(name)).read_text(encoding="utf-8"))
        return [str(s) for s in (data.get("sides") or {})]
    except Exception:  # noqa: BLE001 - the page offers no sides; Start says what is wrong
        return []


class Referee:
    """The umpire of a game against the computer: whenever the umpire is to act (or nobody is),
    it ends the step (``umpire: done``, else ``umpire: advance``), in a background thread, so the
    game goes on by itself between the sides' steps. ``errors`` keeps what went wrong."""

    def __init__(self, game: Any):
        self.game = game
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._unsubscribe = game.subscribe(lambda change: self._wake.set())
        self._thread = threading.Thread(target=self._run, name="owsnb-referee", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set() and len(self.errors) <= 20:
            self._wake.clear()
            if not self.step():
                self._wake.wait(timeout=1.0)

    def step(self) -> bool:
        """End the step now if it is the umpire's (or nobody's); ``True`` if something was
        submitted (or someone else acted first: look again)."""
        from owsnb.kernel.errors import IllegalOrderError, OwsnbError, StaleStateError
        from owsnb.kernel.orders import Order
        from owsnb.kernel.state import UMPIRE

        g = self.game
        acting = g.clock.acting
        if g.is_over() or (acting and UMPIRE not in acting):
            return False
        rev = g.revision(UMPIRE)
        problem: Exception | None = None
        for verb in ("done", "advance") if acting else ("advance",):
            try:
                g.submit(Order(UMPIRE, verb), state_id=rev, seat=UMPIRE)
                return True
            except StaleStateError:
                return True
            except IllegalOrderError as exc:
                problem = exc
            except OwsnbError as exc:  # e.g. the history is rewound: wait, and say why
                problem = exc
                break
        self.errors.append(f"{type(problem).__name__}: {problem}")
        return False

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        self._unsubscribe()
        self._thread.join(timeout)


class DemoPage(W.VBox):
    """The seat dashboard without a seat link: a solo game of a bundled scenario, played here.

    Start loads the chosen scenario with ``owsnb.load(name, seed=…)``, autosaved to a new file
    under :func:`demo_dir`; Resume reopens a saved one with ``owsnb.resume``. Either shows
    ``owsnb.App`` on the chosen seat: ``"umpire"`` (solo study; the App's seat switch looks
    through each side's eyes), ``"hot-seat"`` (the side that acts first; the switch offers the
    sides only and draws the curtain between them) or ``"computer"``: the student's side only
    (``you play``), every other side played by an :class:`owsnb.bots.Autopilot` of the bot
    chosen (the registry's, within ``seconds per order``) through its own side's eyes, and the
    umpire's steps ended by a :class:`Referee`; a panel above the tabs and arrows on the map show
    what the computer did as far as the student's side may know (:mod:`owsnb.widgets.opponent`),
    never its hidden units. Its file says so (``…-vs-greedy-as-blue.owsnb``): it resumes the same
    way. A hot-seat game's file says so
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
        >>> page.you.options, page.bot.value, page.versus_row.layout.display
        (('blue', 'red'), 'greedy', 'none')
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
        import owsnb.bots
        from owsnb.scenario import list_scenarios
        from owsnb.widgets.controls import button

        names = list(scenarios) if scenarios is not None else list_scenarios()
        self.folder = Path(folder) if folder is not None else demo_dir()
        self.app_options = app_options
        self.game: Any = None
        self.app: Any = None
        self.pilots: list[Any] = []  # the computer's sides (owsnb.bots.Autopilot)
        self._before: dict[str, Any] = {}  # the student's view when a computer side began
        self.referee: Referee | None = None
        self.computer: Any = None  # the panel of what the computer did
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
            tooltips=[
                "see everything, give every side's orders",
                "pass the screen between sides",
                "play one side; the computer plays the others",
            ],
            style={"button_width": "auto"},
        )
        self.you = W.Dropdown(description="you play", style=wide, layout=W.Layout(width="200px"))
        self.bot = W.Dropdown(
            options=owsnb.bots.names(),
            value="greedy" if "greedy" in owsnb.bots.names() else None,
            description="the computer",
            style=wide,
            layout=W.Layout(width="230px"),
            tooltip="random: random legal orders; greedy: the best order now by the rules' "
            "exact odds; search: looks ahead over what it cannot see (uses all its time); "
            "paired: greedy's order unless trying each order on the same guessed worlds and "
            "dice shows a better one",
        )
        self.budget = W.BoundedFloatText(
            value=2.0,
            min=0.2,
            max=60.0,
            step=0.5,
            description="seconds per order",
            style=wide,
            layout=W.Layout(width="210px"),
        )
        self.versus_row = W.HBox(
            [self.you, self.bot, self.budget],
            layout=W.Layout(display="none", align_items="center"),
        )
        self.seat.observe(lambda _: self._show_versus(), "value")
        self.scenario.observe(lambda _: self._fill_sides(), "value")
        self._fill_sides()
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
                self.versus_row,
                self.resume_row,
                self.status,
            ]
        )
        self.slot = W.Box(layout=W.Layout(width="100%"))
        super().__init__([self.intro, self.chooser, self.slot], layout=W.Layout(width="100%"))
        self.add_class("owsnb-demo")
        self.refresh_saved()

    def _fill_sides(self) -> None:
        sides = scenario_sides(self.scenario.value) if self.scenario.value else []
        keep = self.you.value if self.you.value in sides else None
        self.you.options = sides
        self.you.value = keep or (sides[0] if sides else None)

    def _show_versus(self) -> None:
        self.versus_row.layout.display = "" if self.seat.value == "computer" else "none"

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
        if self.seat.value == "computer":
            if not self.you.value or not self.bot.value:
                self._problem("Choose your side and the computer's bot first.")
                return None
            mode = f"-vs-{self.bot.value}-as-{self.you.value}"
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
        # a hot-seat game never resumes in the umpire's view (another may resume as hot-seat);
        # nor does a game against the computer (its sides' hidden units)
        versus = versus_of(target)
        hot = Path(target).stem.endswith(HOTSEAT_MARK) or self.seat.value == "hot-seat"
        return self._open(
            f"Resuming {Path(target).name}…",
            lambda: owsnb.resume(target),
            hot_seat=hot and versus is None,
            versus=versus,
        )

    def _open(
        self,
        doing: str,
        make: Any,
        hot_seat: bool | None = None,
        versus: tuple[str, str] | None = None,
    ) -> Any:
        from owsnb.kernel.errors import OwsnbError

        self.start_button.disabled = self.resume_button.disabled = True
        self.status.value = f"<span style='font:13px system-ui'>{html.escape(doing)}</span>"
        if versus is None and hot_seat is None and self.seat.value == "computer":
            versus = (self.bot.value, self.you.value)
        try:
            game = make()
            if versus is not None and versus[1] not in game.sides:
                raise ValueError(f"{versus[1]!r} is not a side of this game: {game.sides}")
            hot = self.seat.value == "hot-seat" if hot_seat is None else hot_seat
            app = (
                self._app(game, hot, resumed=hot_seat is not None)
                if versus is None
                else self._versus_app(game, versus[1])
            )
        except (OwsnbError, OSError, ValueError, KeyError) as exc:
            self._problem(f"{type(exc).__name__}: {exc}")
            return None
        finally:
            self.start_button.disabled = self.resume_button.disabled = False
        self.stop_computer()
        if self.app is not None:
            self.app.close()
        self.game, self.app = game, app
        if versus is not None:
            self._seat_computer(game, app, *versus)
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

    def _versus_app(self, game: Any, side: str) -> Any:
        """The student's table: their side's seat only (no switch, no curtain: the computer's
        sides are never shown at this screen)."""
        from owsnb.widgets import App

        opts = dict(self.app_options)
        if opts.get("map_height") == PAGE_MAP_HEIGHT:
            opts["map_height"] = DEMO_MAP_HEIGHT
        return App(game, seat=side, seats=(side,), curtain=False, **opts)

    def _seat_computer(self, game: Any, app: Any, bot: str, me: str) -> None:
        """The computer takes every other side (an Autopilot each, through its side's eyes), a
        Referee ends the umpire's steps, and a panel shows the student what it did."""
        from owsnb.bots import Autopilot, get
        from owsnb.widgets.opponent import ComputerPanel

        secs = float(self.budget.value)
        spec: dict[str, Any] = {"bot": bot}
        if bot == "search":
            spec["budget"] = round(max(0.1, secs * 0.8), 2)  # it uses all it has: leave a margin
        label = get(spec).label
        others = [s for s in game.sides if s != me]
        self.computer = ComputerPanel(app.table, {s: label for s in others}, budget=secs)
        app.add_aside(self.computer)
        seed = int(game.meta.get("seed") or 0)
        for s in others:
            self.pilots.append(
                Autopilot(
                    game,
                    spec,
                    s,
                    seed=seed,
                    budget=secs,
                    listener=partial(self._heard, game, me, s),
                )
            )
        self.referee = Referee(game)

    def _heard(self, game: Any, me: str, side: str, what: str, sub: Any) -> None:
        """An Autopilot's news (in its thread): it starts on an order (the student's view is
        kept to compare), or gave it (what the student's side saw of it is shown)."""
        from owsnb.widgets.opponent import seen_act

        panel = self.computer
        if panel is None:
            return
        if what == "thinking":
            self._before[side] = game.view(me)
            panel.set_thinking(side, True)
            return
        panel.set_thinking(side, False)
        before = self._before.pop(side, None)
        if sub is not None and before is not None:
            panel.record(seen_act(me, side, sub.events, before, game.view(me)))

    def stop_computer(self) -> None:
        """Stop the computer's sides and the referee (a new game, or the page closes)."""
        for p in self.pilots:
            p.stop()
        self.pilots = []
        if self.referee is not None:
            self.referee.stop()
            self.referee = None
        self.computer = None

    def close(self) -> None:
        self.stop_computer()
        super().close()

    def _problem(self, text: str) -> None:
        self.status.value = (
            "<div style='font:13px system-ui;color:#c0392b'>Could not open the game: "
            f"{html.escape(text)}</div>"
        )

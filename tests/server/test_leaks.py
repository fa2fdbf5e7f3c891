"""Hidden information stays hidden: nothing a seat receives names a unit it has not detected.

A random game is played through remote seats — the kernel's skirmish, and the OWS tutorial (a
few dozen orders of Phase I) — and three nets catch leaks:

* the authority scans every answer it gives a seat, at the moment it gives it, against the units
  that seat's side has not seen so far (``owsnb.testing.hidden_tokens``: their ids and names as
  whole tokens, and the places of units it does not see wherever a unit is placed), errors
  included, and against the numbers the side may be shown (``owsnb.testing.numbering``: no
  ``seq``, ``batch``, ``state_id`` beyond its own count: issue 18);
* each client records every HTTP body and WebSocket message it received; these are scanned
  against the units its side never detected during the whole game;
* an ``owsnb.widgets.App`` on the remote seat is kept up to date, and every widget's state (what
  goes to the browser) is scanned after each change.

Zero leaks allowed. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import threading
from typing import Any, NamedTuple

import numpy as np
import pytest

from owsnb.kernel.errors import IllegalOrderError, OwsnbError, StaleStateError
from owsnb.kernel.state import UMPIRE
from owsnb.server.authority import Authority
from owsnb.server.runner import ServerThread
from owsnb.store import open_store
from owsnb.testing import find_leaks, hidden_tokens
from owsnb.testing.leaks import Numbers
from tests.server.conftest import SKIRMISH

SCANNED = (
    "seat_info",
    "view",
    "events",
    "annotations",
    "legal",
    "check",
    "preview",
    "submit",
    "undo",
    "annotate",
    "push",
)


class ScanningAuthority(Authority):
    """An authority that scans each answer to a seat for hidden units before it leaves."""

    def __init__(self, *a: Any, **kw: Any):
        super().__init__(*a, **kw)
        self.leaks: list[str] = []
        self.scanned = 0
        self._known: dict[tuple[int, str], tuple[int, set[str]]] = {}

    def _seen_so_far(self, game: Any, side: str, n: int) -> set[str]:
        """Ids and names of units *side* has seen at some point of the first *n* events: once seen,
        a unit is no secret, so old events naming it are no leak."""
        last, seen = self._known.get((id(game), side), (-1, set()))
        for k in range(last + 1, n + 1):
            st = game.state_at(k)
            for u in st.units.values():
                v = game.ruleset.view_unit(st, u, side) if u.side != side else u
                if v is not None and v.id == u.id:
                    seen |= {u.id, u.name}
        self._known[(id(game), side)] = (max(last, n), seen)
        return seen

    def _scan(
        self, name: str, s: Any, payload: Any, at: int | None = None, asked: str = ""
    ) -> None:
        sg, seat = s
        # no seat, the umpire's included, learns where the authority keeps its files (issue 18)
        where = (
            sg.game.state.scenario.get("file"),
            self.store.url,
            getattr(self.store, "path", ""),
        )
        paths = {p for p in where if p}
        tokens = {str(p) for p in paths}
        if seat.view_side != UMPIRE:
            n = sg.horizon(seat) if at is None else sg.to_game(seat, at)
            state = sg.game.state_at(n)
            seen = self._seen_so_far(sg.game, seat.view_side, n)
            # an error may repeat what the seat itself typed: that tells it nothing
            tokens |= {
                t
                for t in hidden_tokens(state, seat.view_side, sg.game.ruleset)
                if t not in asked and t not in seen
            }
            # no number beyond what the side saw (its events, submissions, revision)
            h, side = sg.horizon(seat), seat.view_side
            batches = len({e.batch for e in sg.game.events[:h] if e.visible(side)})
            tokens.add(Numbers(sg.count(seat), batches, sg.game.revision(side)))  # type: ignore[arg-type]
        found = find_leaks(payload, tokens)
        self.scanned += 1
        self.leaks += [f"{name} to {seat.label}: {x}" for x in found]


def _wrap(name: str) -> Any:
    base = getattr(Authority, name)

    def method(self: ScanningAuthority, s: Any, *args: Any, **kw: Any) -> Any:
        asked = str(args[0]) if name in ("check", "preview", "submit") and args else ""
        with s[0].lock:
            try:
                out = base(self, s, *args, **kw)
            except (OwsnbError, KeyError, ValueError) as exc:
                self._scan(name, s, str(exc), asked=asked)
                raise
            at = args[0] if name == "view" and args and args[0] is not None else None
            self._scan(name, s, out.data if name == "push" else out, at)
            return out

    return method


for _name in SCANNED:
    setattr(ScanningAuthority, _name, _wrap(_name))


class Tap:
    """Records every payload a remote seat receives (HTTP bodies and pushed messages)."""

    def __init__(self, seat: Any):
        self.payloads: list[Any] = []
        self.lock = threading.Lock()
        seat._http.event_hooks["response"].append(self._response)
        handle = seat._handle

        def tapped(msg: dict[str, Any]) -> None:
            with self.lock:
                self.payloads.append(msg)
            handle(msg)

        seat._handle = tapped

    def _response(self, r: Any) -> None:
        r.read()
        with self.lock:
            self.payloads.append(r.text)


def never_detected(game: Any, side: str) -> set[str]:
    """Ids and names of units *side* did not see at any point of the game."""
    out: set[str] | None = None
    for n in range(game.seq + 1):
        toks = hidden_tokens(game.state_at(n), side, game.ruleset)
        out = toks if out is None else out & toks
    return out or set()


def widget_states() -> list[Any]:
    import ipywidgets

    instances = ipywidgets.widgets.widget._instances
    return [w.get_state() for w in list(instances.values())]


class Case(NamedTuple):
    """A game to play randomly: orders tried (more than *commits* must go through), answers
    scanned at least, and the orders tried under a widget App (more than *app_commits*)."""

    scenario: Any
    tries: int
    commits: int
    answers: int
    app_tries: int
    app_commits: int


# a random OWS plan (4.3) needs text the sampler cannot write: many of its tries are refused
GAMES = {
    "skirmish": Case(SKIRMISH, 110, 40, 200, 45, 15),
    "ows-tutorial": Case("tutorial", 90, 24, 150, 60, 15),
}


@pytest.fixture(params=list(GAMES))
def scanning(store_url: str, request: pytest.FixtureRequest) -> Any:
    store = open_store(store_url)
    auth = ScanningAuthority(store)
    created = auth.create_game(GAMES[request.param].scenario, seed=5)
    auth.case = GAMES[request.param]
    srv = ServerThread(auth).start()
    yield auth, srv, created
    srv.stop()
    store.close()


def play_randomly(
    auth: Any, created: Any, seats: dict[str, Any], steps: int, seed: int, after_commit: Any = None
) -> int:
    """Random legal orders from whoever acts (about one in five a 'done'), a few probes of the
    refusal paths naming hidden enemies (from untapped handles), an umpire note now and then."""
    from owsnb.server.client import connect

    url = seats["blue"].url
    probers = {s: connect(url, created.tokens[s], listen=False) for s in ("blue", "red")}
    game = auth.served(created.game_id).game
    rng = np.random.default_rng(seed)
    committed = 0
    try:
        for step in range(steps):
            if game.is_over():
                break
            acting = list(game.state.clock.acting)
            side = acting[int(rng.integers(len(acting)))] if acting else UMPIRE
            seat = seats[side] if side in seats else seats["umpire"]
            legal = seat.legal_orders(side if side != seat.side else None)
            others = [s for s in legal if s.verb != "done"]
            order = (
                others[int(rng.integers(len(others)))].sample(rng)
                if others and rng.random() > 0.2
                else None
            )
            order = order or f"{side}: {'done' if side != UMPIRE else 'advance'}"
            if side in probers and rng.random() < 0.1:
                enemy = next(u.id for u in game.state.units.values() if u.side != side)
                for probe in (f"{side}: fire {enemy} {enemy}", f"{side}: move {enemy} 0101"):
                    with pytest.raises((IllegalOrderError, ValueError)):
                        probers[side].check(probe)
            try:
                sub = seat.submit(order, state_id=seat.state_id)
            except (IllegalOrderError, StaleStateError):
                continue
            committed += 1
            if step % 15 == 7:
                seats["umpire"].annotate(f"note at step {step}", side="red")
            if after_commit is not None:
                after_commit(sub.state_id)
    finally:
        for p in probers.values():
            p.close()
    return committed


def test_no_payload_names_an_undetected_unit(scanning: Any) -> None:
    from owsnb.server.client import connect

    auth, srv, created = scanning
    url = f"{srv.url}/games/{created.game_id}"
    seats = {s: connect(url, created.tokens[s]) for s in ("blue", "red", "umpire", "observer")}
    taps = {s: Tap(seat) for s, seat in seats.items()}
    game = auth.served(created.game_id).game
    try:
        case = auth.case
        committed = play_randomly(auth, created, seats, case.tries, seed=7)
        assert committed > case.commits, f"only {committed} orders were committed"
        for label, s in seats.items():
            assert s.wait(game.revision(s.side), 10), label
        red_seq = seats["red"].seq
        for n in range(0, red_seq + 1, max(1, red_seq // 10)):  # the history slider
            seats["red"].view_at(n)
        seats["blue"].events  # noqa: B018  (the whole log)
    finally:
        for s in seats.values():
            s.close()
    assert auth.scanned > case.answers
    assert auth.leaks == [], auth.leaks[:10]
    for side in ("blue", "red"):
        toks = never_detected(game, side)
        assert toks, f"{side} saw every enemy unit: the test would prove nothing"
        payloads = [p if isinstance(p, dict) else _maybe_json(p) for p in taps[side].payloads]
        assert len(payloads) > case.answers // 4
        leaks = find_leaks(payloads, toks)
        assert leaks == [], leaks[:10]


@pytest.mark.slow
def test_no_widget_state_names_an_undetected_unit(scanning: Any) -> None:
    """An App on red's remote seat, refreshed by pushes: every widget's state after each change."""
    import ipywidgets

    from owsnb.server.client import connect
    from owsnb.widgets import App

    auth, srv, created = scanning
    url = f"{srv.url}/games/{created.game_id}"
    seats = {s: connect(url, created.tokens[s]) for s in ("blue", "red", "umpire")}
    ipywidgets.Widget.close_all()
    app = App(seats["red"])
    seen = threading.Condition()
    latest = [0]

    def heard(change: Any) -> None:  # subscribed after the App: called once the App has redrawn
        with seen:
            latest[0] = max(latest[0], change.state_id)
            seen.notify_all()

    seats["red"].subscribe(heard)
    game = auth.served(created.game_id).game
    leaks: list[str] = []
    scans = [0]

    def scan(_state_id: int) -> None:
        with seen:  # red hears only what it may see: its own revision
            seen.wait_for(lambda: latest[0] >= game.revision("red"), timeout=10)
        leaks.extend(find_leaks(widget_states(), hidden_tokens(game.state, "red", game.ruleset)))
        scans[0] += 1

    try:
        case = auth.case
        committed = play_randomly(auth, created, seats, case.app_tries, seed=11, after_commit=scan)
    finally:
        app.close()
        for s in seats.values():
            s.close()
    assert committed > case.app_commits and scans[0] == committed
    assert leaks == [], leaks[:10]


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def test_the_net_catches_a_leaking_authority(tmp_path: Any) -> None:
    """The scanner is not blind: an authority that wrongly shows red the umpire's view is caught."""
    from owsnb.server.authority import ServedGame

    class Leaky(ScanningAuthority):
        def _load(self, game_id: str) -> ServedGame:
            sg = super()._load(game_id)
            sg.view_for = lambda seat, n=None: sg.game.view(UMPIRE)  # type: ignore[method-assign]
            return sg

    auth = Leaky(open_store(tmp_path / "leaky.owsnb"))
    created = auth.create_game(SKIRMISH, seed=5)
    auth.view(auth.seat(created.game_id, created.tokens["red"]))
    assert any("B-INF-1" in leak for leak in auth.leaks)
    # and where the hidden units stand: their unit records place them on the map
    red = auth.served(created.game_id).game.view("red")
    placed = {u.hex for u in red.units.values()}
    hidden = {
        red.map.label(u.hex)
        for u in auth.served(created.game_id).game.state.units.values()
        if u.side == "blue" and u.hex not in placed
    }
    assert hidden and {leak.split("'")[1] for leak in auth.leaks if "position" in leak} == hidden
    auth.store.close()


def test_the_net_catches_numbers_that_count_hidden_commits(tmp_path: Any) -> None:
    """An authority that tells every seat the game's numbers (the code before issue 18) is caught:
    red's numbers would count Blue's move out of its sight."""

    class GameNumbers(ScanningAuthority):
        def numbers(self, sg: Any, seat: Any, asking: Any = None) -> dict[str, Any]:
            return {"state_id": sg.game.state_id, "seq": sg.horizon(seat)}

    for cls, caught in ((GameNumbers, True), (ScanningAuthority, False)):
        auth = cls(open_store(tmp_path / f"{cls.__name__}.owsnb"))
        created = auth.create_game(SKIRMISH, seed=5)
        auth.submit(auth.seat(created.game_id, created.tokens["blue"]), "move B-INF-1 0303")
        red = auth.seat(created.game_id, created.tokens["red"])
        auth.seat_info(red)
        auth.view(red)
        assert auth.scanned == 3  # the submit, seat_info and view
        assert any("number state_id=1 beyond the 0" in x for x in auth.leaks) is caught, auth.leaks
        assert any("number seq=2 beyond the 0" in x for x in auth.leaks) is caught, auth.leaks
        auth.store.close()

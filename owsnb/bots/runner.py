"""Playing a side through the ``Game`` API only: locally (``owsnb.load``) or remotely
(``owsnb.connect(url, token)``: the authority then decides what the bot sees and may do).

A :class:`Bot` is a policy seated on one side with a seed and a time budget per order. For each
order it asks the game for the side's view and legal orders, runs the policy in a worker thread
for at most ``budget`` seconds (plus ``grace``), and submits what it chose. When the policy is
late, fails, passes or is refused, the bot **passes safely**: ``done``, or — where a rule demands
an answer first and refuses ``done`` (e.g. OWS shields, 9.2.1) — the side's first example order.
So a bot never stalls a game; its record (decision times, timeouts, refusals) is kept.

* :func:`play` drives a local game with bots for some sides (the others pass; umpire steps
  advance) to its end or a turn limit;
* :func:`run_seat` plays one seat (remote or local) until the game ends, a turn limit, or a
  stop event, in the caller's thread (scripts);
* :class:`Autopilot` plays a side in the background whenever it is to act, listening to the
  game's changes — the thin layer a page needs ("play against the computer", "hand a side to a
  bot").

>>> from owsnb.rules.skirmish import example
>>> game = example()  # the kernel's example: skirmish, seed 11, in memory
>>> report = play(game, {"blue": "greedy", "red": "random"}, turns=1, seed=3)
>>> report.bots["blue"].label, game.clock.turn
('greedy', 2)
"""

from __future__ import annotations

import concurrent.futures as cf
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from owsnb.bots.policy import Budget, Policy
from owsnb.bots.registry import get
from owsnb.kernel.errors import IllegalOrderError, StaleStateError
from owsnb.kernel.orders import Order
from owsnb.kernel.state import UMPIRE

__all__ = [
    "Autopilot",
    "Bot",
    "PlayReport",
    "play",
    "run_seat",
    "revision_of",
    "safe_pass",
    "side_seed",
    "view_of",
]


def side_seed(seed: int, side: str) -> np.random.SeedSequence:
    """The seed sequence of *side*'s bot in a game seeded *seed* (stable across runs)."""
    return np.random.SeedSequence([int(seed) & 0xFFFFFFFF, zlib.crc32(side.encode())])


def view_of(seat: Any, side: str) -> Any:
    """*side*'s view from a local ``Game``, a remote seat (``owsnb.connect``) or the umpire's
    seat looking through one side's eyes (``remote.as_side(side)``, whose ``view()`` takes no
    side)."""
    try:
        return seat.view(side)
    except TypeError:
        return seat.view()


def revision_of(seat: Any, side: str) -> int:
    """The revision *side*'s orders are checked against on *seat* (``submit(...,
    state_id=...)``): a local ``Game``'s :meth:`~owsnb.kernel.game.Game.revision` of the side —
    not the game's ``state_id``, which also counts what the side cannot see — or a remote seat's
    ``state_id`` (the authority's answer for that seat; the umpire's seat looking through a side's
    eyes answers the side's revision: it submits as that side, issue 18)."""
    rev = getattr(seat, "revision", None)
    if callable(rev):
        try:
            return int(rev(side))
        except (TypeError, KeyError):
            pass
    return int(seat.state_id)


def safe_pass(game: Any, side: str) -> Any:
    """Submit the least *side* can do now: ``done``, or — when a rule refuses ``done`` until it
    is answered (OWS shields, 9.2.1; an open OpScale engagement, OES.10) — the first legal
    example order. Returns the submission.

    Raises:
        IllegalOrderError: nothing the side could say was accepted.
    """
    try:
        return game.submit(Order(side, "done"))
    except IllegalOrderError as exc:
        legal = game.legal_orders(side)
        for spec in legal.specs:
            for ex in spec.examples:
                try:
                    return game.submit(ex)
                except IllegalOrderError:
                    continue
        raise exc


class Bot:
    """A policy playing *side* of one game, with a seed and a time budget per order.

    Args:
        policy: a bot name (``"greedy"``), ``{"bot": name, **options}`` or a :class:`Policy`.
        side: the side it plays.
        seed: seeds its generator (one child generator per decision, so a late decision that is
            abandoned cannot disturb the next).
        budget: seconds per order (``None``: unlimited, the policy runs in the caller's thread;
            ``"auto"``: the policy's own ``budget`` option plus a second, else 2 s).
        grace: extra seconds allowed before the runner gives up on a late policy and passes.
    """

    def __init__(
        self,
        policy: str | Mapping[str, Any] | Policy,
        side: str,
        *,
        seed: int = 0,
        budget: float | str | None = "auto",
        grace: float = 0.25,
    ):
        self.policy = get(policy)
        self.side = side
        if budget == "auto":
            own = self.policy.settings.get("budget")
            budget = float(own) + 1.0 if isinstance(own, (int, float)) else 2.0
        self.budget: float | None = None if budget is None else float(budget)
        self.grace = grace
        self._seeds = side_seed(seed, side)
        self._pool: cf.ThreadPoolExecutor | None = None
        self.times: list[float] = []  # wall seconds per decision
        self.cpu_times: list[float] = []  # the policy thread's CPU seconds (nan: abandoned)
        self.orders = 0
        self.passes = 0
        self.timeouts = 0
        self.refusals: list[str] = []
        self.failures: list[str] = []

    @property
    def label(self) -> str:
        return self.policy.label

    def __repr__(self) -> str:
        return (
            f"<Bot {self.label} as {self.side}: {self.orders} orders, {self.passes} passes, "
            f"{self.timeouts} late, {len(self.refusals)} refused>"
        )

    def decide(self, game: Any) -> Order | None:
        """Ask the policy for an order now (``None``: pass, or it was late or failed)."""
        view = view_of(game, self.side)
        legal = game.legal_orders(self.side)
        rng = np.random.default_rng(self._seeds.spawn(1)[0])
        t0 = time.perf_counter()
        budget = Budget(self.budget)
        cpu: list[float] = []

        def think() -> Order | None:
            c0 = time.thread_time()
            try:
                return self.policy.decide(view, legal, rng, budget)
            finally:
                cpu.append(time.thread_time() - c0)

        try:
            if self.budget is None:
                order = think()
            else:
                if self._pool is None:
                    self._pool = cf.ThreadPoolExecutor(
                        1, thread_name_prefix=f"owsnb-bot-{self.side}"
                    )
                fut = self._pool.submit(think)
                try:
                    order = fut.result(timeout=self.budget + self.grace)
                except cf.TimeoutError:
                    # abandon the late thread (it only holds a view); a fresh one serves next time
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                    self.timeouts += 1
                    order = None
        except Exception as exc:  # noqa: BLE001 - a failing policy passes; the game goes on
            self.failures.append(f"{type(exc).__name__}: {exc}")
            order = None
        self.times.append(time.perf_counter() - t0)
        self.cpu_times.append(cpu[0] if cpu else float("nan"))
        return order

    def act(self, game: Any) -> Any:
        """Decide and submit one order (or pass safely). Returns the submission, or ``None`` if
        the game moved on while the bot thought (someone else acted: ask again). The order is
        submitted against the state it was chosen on — the side's own revision
        (:func:`revision_of`), so it never lands on another, and an event the side cannot see
        does not make it stale."""
        rev = revision_of(game, self.side)
        order = self.decide(game)
        if order is not None:
            try:
                sub = game.submit(order, state_id=rev)
                self.orders += 1
                return sub
            except StaleStateError:
                return None
            except IllegalOrderError as exc:
                self.refusals.append(f"{order}: {exc}")
        if revision_of(game, self.side) != rev:
            return None
        self.passes += 1
        try:
            return safe_pass(game, self.side)
        except StaleStateError:
            return None

    def decision_times(self, clock: str = "wall") -> dict[str, float]:
        """p50/p95/max seconds per decision so far (``clock="cpu"``: the policy's CPU time)."""
        t = np.asarray(self.times if clock == "wall" else self.cpu_times, dtype=float)
        t = t[~np.isnan(t)]
        if not t.size:
            return {"p50": float("nan"), "p95": float("nan"), "max": float("nan")}
        return {
            "p50": float(np.percentile(t, 50)),
            "p95": float(np.percentile(t, 95)),
            "max": float(t.max()),
        }

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


@dataclass
class PlayReport:
    """What :func:`play` did."""

    bots: dict[str, Bot]
    orders: int = 0
    turn: int = 0
    over: bool = False
    stopped: str = ""
    log: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        who = ", ".join(f"{s}={b.label}" for s, b in self.bots.items())
        return f"<PlayReport {who}: {self.orders} orders, turn {self.turn}, {self.stopped}>"


def play(
    game: Any,
    bots: Mapping[str, Any],
    *,
    turns: int | None = None,
    max_orders: int = 5_000,
    seed: int = 0,
    budget: float | str | None = "auto",
    others: Callable[[Any, str], Any] | None = None,
) -> PlayReport:
    """Play a local *game* with *bots* (side -> bot name, spec, policy or :class:`Bot`) until it
    ends, turn *turns* is over, or *max_orders* submissions. Sides without a bot pass (or are
    played by ``others(game, side)``); steps with nobody to act advance (umpire).
    """
    seated = {
        side: b if isinstance(b, Bot) else Bot(b, side, seed=seed, budget=budget)
        for side, b in bots.items()
    }
    report = PlayReport(seated)
    stuck = 0
    try:
        while report.orders < max_orders:
            if game.is_over():
                report.stopped = "game over"
                break
            if turns is not None and game.clock.turn > turns:
                report.stopped = f"turn limit {turns}"
                break
            acting = game.clock.acting
            seq = game.seq
            if not acting:
                game.submit(Order(UMPIRE, "advance"))
            elif acting[0] in seated:
                seated[acting[0]].act(game)
            elif others is not None and acting[0] != UMPIRE:
                others(game, acting[0])
            else:
                safe_pass(game, acting[0])
            report.orders += 1
            stuck = stuck + 1 if game.seq == seq else 0
            if stuck > 50:
                raise RuntimeError(f"no progress in 50 orders at {game.clock}")
        else:
            report.stopped = f"{max_orders} orders"
    finally:
        for b in seated.values():
            b.close()
    report.turn = game.clock.turn
    report.over = game.is_over()
    return report


def run_seat(
    seat: Any,
    bot: Any,
    *,
    side: str | None = None,
    turns: int | None = None,
    stop: Any = None,
    wait: float = 0.5,
    max_orders: int = 5_000,
    seed: int = 0,
    budget: float | str | None = "auto",
) -> Bot:
    """Play one seat until the game ends, turn *turns* is over, *max_orders* orders were given
    or ``stop`` (a ``threading.Event``) is set. *seat* is a remote seat (``owsnb.connect``: its
    own side) or a local game (name the *side*). Waits for its turn with ``seat.wait`` (remote)
    or short sleeps (local, while other threads play). Returns the :class:`Bot` (its record)."""
    side = side or getattr(seat, "side", None)
    if side is None or side == UMPIRE:
        raise ValueError("run_seat plays a side: give a side seat or name the side")
    b = bot if isinstance(bot, Bot) else Bot(bot, side, seed=seed, budget=budget)
    given = 0
    try:
        while given < max_orders and not (stop is not None and stop.is_set()):
            rev = seat.state_id
            clock = view_of(seat, side).clock
            if (turns is not None and clock.turn > turns) or _over(seat):
                break
            if side in clock.acting:
                b.act(seat)
                given += 1
            elif hasattr(seat, "wait"):
                seat.wait(rev + 1, timeout=wait)
            else:
                time.sleep(min(wait, 0.05))
    finally:
        b.close()
    return b


def _over(seat: Any) -> bool:
    over = getattr(seat, "is_over", None)
    return bool(over()) if callable(over) else False


class Autopilot:
    """A bot that plays *side* of a game whenever that side is to act, in a worker thread, until
    :meth:`stop` — what a page needs to offer "play against the computer" or to hand a seminar
    side to a bot: it listens to the game's changes (``subscribe``) and acts through the same
    API a person's seat uses.

    Args:
        seat: a local ``Game``, a side's remote seat (``owsnb.connect``) or the umpire's seat
            looking through a side's eyes (``remote.as_side("red")``).
        bot: a bot name, spec, policy or :class:`Bot`.
        side: the side (default: the seat's).
        seed, budget: as for :class:`Bot`.
        listener: called ``listener("thinking", None)`` when the bot starts on an order and
            ``listener("acted", submission)`` once it is given (``None``: the game moved on
            meanwhile) — a page shows what the computer does (it runs in the autopilot's thread).

    ``errors`` keeps what went wrong (a lost connection...); the bot's record is ``bot``;
    ``thinking`` says whether it is deciding now.
    """

    def __init__(
        self,
        seat: Any,
        bot: Any,
        side: str | None = None,
        *,
        seed: int = 0,
        budget: float | str | None = "auto",
        listener: Callable[[str, Any], Any] | None = None,
    ):
        import threading

        self.seat = seat
        self.listener = listener
        self.thinking = False
        chosen = side or getattr(seat, "side", None)
        if not isinstance(chosen, str) or chosen == UMPIRE:
            raise ValueError("an autopilot plays a side: give a side seat or name the side")
        self.side: str = chosen
        self.bot = bot if isinstance(bot, Bot) else Bot(bot, self.side, seed=seed, budget=budget)
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._unsubscribe = seat.subscribe(lambda change: self._wake.set())
        self._thread = threading.Thread(
            target=self._run, name=f"owsnb-autopilot-{self.side}", daemon=True
        )
        self._thread.start()

    def __repr__(self) -> str:
        state = "stopped" if self._stop.is_set() else "playing"
        return f"<Autopilot {self.bot.label} as {self.side}, {state}: {self.bot}>"

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                if _over(self.seat):
                    break
                if self.side in view_of(self.seat, self.side).clock.acting:
                    self.thinking = True
                    self._tell("thinking", None)
                    try:
                        sub = self.bot.act(self.seat)
                    finally:
                        self.thinking = False
                    self._tell("acted", sub)
                    continue
            except Exception as exc:  # noqa: BLE001 - the page shows it; the game goes on
                self.errors.append(f"{type(exc).__name__}: {exc}")
                if len(self.errors) > 20:
                    break
            self._wake.wait(timeout=1.0)

    def _tell(self, what: str, sub: Any) -> None:
        if self.listener is None:
            return
        try:
            self.listener(what, sub)
        except Exception as exc:  # noqa: BLE001 - a page's trouble never stops the bot
            self.errors.append(f"listener: {type(exc).__name__}: {exc}")

    def stop(self, timeout: float = 5.0) -> None:
        """Stop playing (the current decision, if any, is finished or abandoned)."""
        self._stop.set()
        self._wake.set()
        try:
            self._unsubscribe()
        finally:
            self._thread.join(timeout)
            self.bot.close()

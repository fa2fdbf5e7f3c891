"""Seminar load: many games on one authority, scripted play, push latency and frame sizes.

    python bench/seminar_load.py                       # SQLite, one server process
    python bench/seminar_load.py --store postgres      # a throw-away PostgreSQL, two processes
    python bench/seminar_load.py --games 8 --seconds 40 --scenario tutorial

Eight games (``--games``) of the OWS tutorial (``--scenario``), each with an umpire, two sides and
two observers (umpire's view and blue's, no delay): 40 seats. In each game the umpire's seat plays
(a random legal order of whoever acts, else ``done``/``advance``) over HTTP; every seat — the
umpire's too — listens on a WebSocket, as a raw client that only records when each push arrives
and how many bytes it had. Phases:

* **classroom**: one order per game every ``--pause`` seconds (default 2.5: a class thinking);
* **abuse**: classroom rate again while game 1's blue seat holds its maximum of reading
  connections and twenty silent clients (a WebSocket handshake, then nothing read) connect with
  game 1's observer tokens; red's latency in game 1 is compared with the classroom phase;
* **stress**: the players order as fast as the server answers (last: games may end).

Printed per phase: push latency (submit started -> push received, p50/p99 over every listening
seat), frame bytes per move (median, max; and the median over the first and the last third of the
moves, to show it does not grow with the game), submit latency (p50/p99), and the server
processes' CPU (percent of one core) and peak RSS. With ``--store postgres`` two server processes
share the store; a game's seats are spread over both, so pushes cross processes by NOTIFY.
Nothing is asserted (``bench/`` measures, tests check).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from base64 import b64encode
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def create_games(store_url: str, n: int, scenario: str) -> list:
    from owsnb.server.authority import Authority
    from owsnb.store import open_store

    with open_store(store_url) as st:
        auth = Authority(st)
        return [
            auth.create_game(
                scenario, seed=100 + g, game_id=f"load-{g}", observers=[("umpire", 0), ("blue", 0)]
            )
            for g in range(n)
        ]


def start_server(store_url: str, tmp: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "OWSNB_HOME": str(tmp / "home")}
    cmd = [sys.executable, "-m", "owsnb", "serve", "--resume", "--store", store_url]
    proc = subprocess.Popen(
        cmd + ["--port", str(port), "--no-voila"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp / f"server-{port}.log", "w"),  # noqa: SIM115
    )
    import httpx

    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc, port
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


class Record:
    """What the listeners and players saw (appended from several threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pushes: list[
            tuple[str, str, int, float, int, bool]
        ] = []  # game, seat, sid, t, bytes, whole
        self.submits: dict[tuple[str, int], float] = {}  # (game, state_id) -> submit start
        self.submit_ms: list[tuple[str, float]] = []
        self.phase = "warm-up"
        self.moves: list[tuple[str, str, int]] = []  # phase, game, state_id


async def listen(
    url: str, headers: dict, game: str, seat: str, rec: Record, stop: asyncio.Event
) -> None:
    import websockets

    async with websockets.connect(url, additional_headers=headers, max_size=2**26) as ws:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            t = time.perf_counter()
            if raw.startswith('{"type":"push"') or raw.startswith('{"type":"change"'):
                msg = json.loads(raw)
                with rec.lock:
                    rec.pushes.append(
                        (game, seat, msg["state_id"], t, len(raw.encode()), "view" in msg)
                    )


def silent_client(port: int, path: str, token: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        ).encode()
    )
    return sock


def player(
    base: str, game: str, token: str, rec: Record, pause: dict, stop: threading.Event, seed: int
) -> None:
    import numpy as np

    from owsnb.kernel.errors import IllegalOrderError, StaleStateError
    from owsnb.server.client import connect

    rng = np.random.default_rng(seed)
    ump = connect(f"{base}/games/{game}", token, listen=False)
    while not stop.is_set():
        try:
            acting = ump.view().clock.acting
            order = "umpire: advance"
            if acting:
                legal = ump.legal_orders(acting[0])
                o = legal.sample(rng, tries=3) if rng.random() > 0.3 else None
                order = str(o) if o is not None else f"{acting[0]}: done"
            t0 = time.perf_counter()
            try:
                sub = ump.submit(order, state_id=ump.state_id)
            except IllegalOrderError as exc:
                if getattr(exc, "code", "") == "game-over":
                    return
                t0 = time.perf_counter()
                sub = ump.submit(f"{acting[0]}: done" if acting else order, state_id=ump.state_id)
            t1 = time.perf_counter()
            with rec.lock:
                rec.submits[(game, sub.state_id)] = t0
                rec.submit_ms.append((rec.phase, (t1 - t0) * 1000))
                rec.moves.append((rec.phase, game, sub.state_id))
        except (IllegalOrderError, StaleStateError):
            pass
        stop.wait(pause["s"])
    ump.close()


class Usage:
    """CPU seconds and peak RSS of the server processes over a phase."""

    def __init__(self, pids: list[int]):
        import psutil

        self.procs = [psutil.Process(p) for p in pids]
        self.peak = 0
        self.t0 = time.perf_counter()
        self.c0 = sum(sum(p.cpu_times()[:2]) for p in self.procs)
        self._stop = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, sum(p.memory_info().rss for p in self.procs))

    def done(self) -> tuple[float, float]:
        self._stop.set()
        cpu = sum(sum(p.cpu_times()[:2]) for p in self.procs) - self.c0
        return 100 * cpu / (time.perf_counter() - self.t0), self.peak / 2**20


def report(
    rec: Record, phase: str, usage: tuple[float, float], only: tuple[str, str] | None = None
) -> dict:
    with rec.lock:
        moves = [(g, sid) for p, g, sid in rec.moves if p == phase]
        pushes = list(rec.pushes)
        submits = dict(rec.submits)
        sub_ms = [ms for p, ms in rec.submit_ms if p == phase]
    wanted = set(moves)
    lat, frames = [], {}
    first: set[tuple[str, str]] = set()
    for game, seat, sid, t, n, _whole in pushes:
        if (game, seat) not in first:  # the view a listener gets when it connects: not a move
            first.add((game, seat))
            continue
        if (game, sid) not in wanted:
            continue
        if only is None or (game, seat) == only:
            lat.append((t - submits[(game, sid)]) * 1000)
        frames.setdefault((game, sid), []).append(n)
    sizes = [n for (game, sid) in moves for n in frames.get((game, sid), [])]
    third = max(1, len(moves) // 3)
    early = [n for m in moves[:third] for n in frames.get(m, [])]
    late = [n for m in moves[-third:] for n in frames.get(m, [])]
    return {
        "moves": len(moves),
        "push_p50": pct(lat, 0.5),
        "push_p99": pct(lat, 0.99),
        "bytes_med": statistics.median(sizes) if sizes else float("nan"),
        "bytes_max": max(sizes) if sizes else float("nan"),
        "bytes_early": statistics.median(early) if early else float("nan"),
        "bytes_late": statistics.median(late) if late else float("nan"),
        "submit_p50": pct(sub_ms, 0.5),
        "submit_p99": pct(sub_ms, 0.99),
        "cpu": usage[0],
        "rss": usage[1],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", default="sqlite", help="sqlite or postgres")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--scenario", default="tutorial")
    ap.add_argument("--seconds", type=float, default=40, help="length of each phase")
    ap.add_argument("--pause", type=float, default=2.5, help="classroom: seconds between orders")
    args = ap.parse_args()
    import logging

    logging.getLogger("websockets").setLevel(logging.CRITICAL)  # the abusers' closing noise
    import owsnb.server.app

    MAX_CONNECTIONS = getattr(owsnb.server.app, "MAX_CONNECTIONS", 4)  # (an older owsnb: none)

    tmp = Path(tempfile.mkdtemp(prefix="owsnb-load-"))
    if args.store == "postgres":
        from tests.server import pgserver

        store_url, nproc = pgserver.fresh_url(), 2
    else:
        store_url, nproc = f"sqlite:///{tmp / 'load.owsnb'}", 1
    created = create_games(store_url, args.games, args.scenario)
    servers = [start_server(store_url, tmp) for _ in range(nproc)]
    bases = [f"http://127.0.0.1:{port}" for _, port in servers]
    rec = Record()
    stop_listen = asyncio.Event()
    loop = asyncio.new_event_loop()
    seats = ["umpire", "blue", "red", "observer-1", "observer-2"]

    async def listeners() -> None:
        tasks = []
        for g, c in enumerate(created):
            for i, seat in enumerate(seats):
                base = bases[(g + i) % nproc].replace("http://", "ws://")
                url = f"{base}/games/{c.game_id}/ws"
                h = {"Authorization": f"Bearer {c.tokens[seat]}"}
                tasks.append(asyncio.create_task(listen(url, h, c.game_id, seat, rec, stop_listen)))
        await asyncio.gather(*tasks, return_exceptions=True)

    lt = threading.Thread(target=lambda: loop.run_until_complete(listeners()), daemon=True)
    lt.start()
    time.sleep(3)
    pause = {"s": args.pause}
    stop_play = threading.Event()
    players = [
        threading.Thread(
            target=player,
            args=(bases[g % nproc], c.game_id, c.tokens["umpire"], rec, pause, stop_play, g),
            daemon=True,
        )
        for g, c in enumerate(created)
    ]
    for p in players:
        p.start()
    pids = [proc.pid for proc, _ in servers]
    results = {}
    time.sleep(2)
    g1 = created[1 % len(created)].game_id
    for phase, p_pause in (("classroom", args.pause), ("abuse", args.pause), ("stress", 0.0)):
        extra: list = []
        if phase == "abuse":
            import websockets.sync.client as wsc

            c1 = created[1 % len(created)]
            ws_base = bases[0].replace("http://", "ws://") + f"/games/{c1.game_id}/ws"
            h = {"Authorization": f"Bearer {c1.tokens['blue']}"}
            extra += [
                wsc.connect(ws_base, additional_headers=h, legacy=True)
                for _ in range(MAX_CONNECTIONS)
            ]
            port = servers[0][1]
            for k in range(20):
                token = c1.tokens["observer-1" if k % 2 else "observer-2"]
                extra.append(silent_client(port, f"/games/{c1.game_id}/ws", token))
        with rec.lock:
            rec.phase = phase
        pause["s"] = p_pause
        usage = Usage(pids)
        time.sleep(args.seconds)
        u = usage.done()
        results[phase] = report(rec, phase, u)
        results[phase + ":red1"] = report(rec, phase, u, only=(g1, "red"))
        for x in extra:
            try:
                x.close()
            except Exception:  # noqa: BLE001 - an evicted connection is already closed
                pass
    stop_play.set()
    for p in players:
        p.join(15)
    loop.call_soon_threadsafe(stop_listen.set)
    lt.join(5)
    for proc, _ in servers:
        proc.terminate()
        proc.wait(15)
    seats_n = len(created) * len(seats)
    print(
        f"\nowsnb seminar load — {args.store} ({nproc} server process{'es' if nproc > 1 else ''}), "
        f"{len(created)} games of {args.scenario!r}, {seats_n} seats listening, "
        f"{args.seconds:.0f} s per phase"
    )
    head = (
        f"{'phase':<10} {'moves':>5} {'push p50':>9} {'push p99':>9} {'bytes/move med':>14} "
        f"{'max':>7} {'1st third':>9} {'last third':>10} {'submit p50':>10} {'p99':>7} "
        f"{'CPU %':>6} {'RSS MB':>7}"
    )
    print(head)
    for phase in ("classroom", "abuse", "stress"):
        r = results[phase]
        print(
            f"{phase:<10} {r['moves']:>5} {r['push_p50']:>7.1f}ms {r['push_p99']:>7.1f}ms "
            f"{r['bytes_med']:>14.0f} {r['bytes_max']:>7.0f} {r['bytes_early']:>9.0f} "
            f"{r['bytes_late']:>10.0f} {r['submit_p50']:>8.1f}ms {r['submit_p99']:>5.1f}ms "
            f"{r['cpu']:>6.0f} {r['rss']:>7.0f}"
        )
    a, b = results["classroom:red1"], results["abuse:red1"]
    print(
        f"game 1 red's pushes: classroom p50 {a['push_p50']:.1f} ms / p99 {a['push_p99']:.1f} ms; "
        f"while blue holds {MAX_CONNECTIONS} connections and 20 silent clients connect: "
        f"p50 {b['push_p50']:.1f} ms / p99 {b['push_p99']:.1f} ms "
        f"(x{b['push_p50'] / a['push_p50']:.2f} median)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""TOCS double blind through the seminar server, in two real browsers.

``owsnb serve tocs-nijmegen`` (loopback, SQLite store, Voila seat dashboards) and two headless
Debian Chromium pages, the Allied and the German seat; nobody opens the umpire's link (the
server makes an umpire seat for every game, but no step of TOCS needs it). Each side plays an
impulse with real clicks — begin, activate, move (the Allies also attack a German hex they cannot
see; the battle is fought at Done) — while the other page waits with its Done button off. After
every order, every HTTP body and WebSocket frame each page received, and the page's DOM, are
scanned for the ids and names of enemy units its side has never seen (only destroyed units are
announced in TOCS): none may appear. The store's game is compared with a local mirror given the
same orders after each one. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import owsnb
from owsnb.testing import find_leaks, hidden_tokens
from owsnb.testing.needs import missing
from tests.browser.driver import ARTIFACTS, Table
from tests.browser.tocs_play import battle_shown, tocs_impulse
from tests.server.test_browser import ARGS, CHROMIUM, Page, Seminar

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCENARIO, SEED = "tocs-nijmegen", 44
SIDES = ("allied", "german")


class Scan:
    """What each page received, scanned after every order for units its side never saw."""

    def __init__(self, truth: Any, pages: dict[str, Page]):
        self.truth = truth
        self.pages = pages
        self.never: dict[str, set[str]] = {}
        self.upto = -1  # the last event whose state is folded into ``never``
        self.scanned = dict.fromkeys(pages, 0)
        self.orders = 0
        self.payloads = dict.fromkeys(pages, 0)

    def __call__(self, order: str = "") -> None:
        game = self.truth()
        rs = game.ruleset
        for n in range(self.upto + 1, game.seq + 1):  # every state the game went through
            state = game.state_at(n)
            for side in self.pages:
                toks = hidden_tokens(state, side, rs)
                self.never[side] = toks if side not in self.never else self.never[side] & toks
        self.upto = game.seq
        for side, p in self.pages.items():
            assert self.never[side], f"{side} saw every enemy unit: the scan would prove nothing"
            new = p.received[self.scanned[side] :]
            self.scanned[side] = len(p.received)
            dom = [p.page.content(), p.page.locator("body").inner_text()]
            leaks = find_leaks([*new, *dom], self.never[side])
            assert leaks == [], f"after {order!r} the {side} page holds {leaks[:3]}"
            self.payloads[side] += len(new)
        self.orders += 1


def test_tocs_double_blind_through_the_server(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        missing("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    started = time.monotonic()
    seminar = Seminar(f"sqlite:///{tmp_path / 'seminar.owsnb'}", tmp_path, SCENARIO, SEED)
    try:
        links = seminar.wait()
        gid = links["game"]
        assert set(links["seats"]) == {"umpire", *SIDES}  # --observer none; the umpire unused
        allowed = (f"http://127.0.0.1:{seminar.vport}", f"ws://127.0.0.1:{seminar.vport}")
        mirror = owsnb.load(SCENARIO, seed=SEED, save=False)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = {s: Page(browser, s, links["seats"][s]["link"], allowed) for s in SIDES}
            for s, p in pages.items():
                p.page.set_viewport_size({"width": 1400, "height": 1200})
                own = next(u.id for u in mirror.view(s).units.values() if u.side == s and u.hex)
                p.marker(own).first.wait_for(timeout=180_000)
            opened = time.monotonic() - started
            tables = {
                s: Table(p.page, 0, mirror, seat=s, truth=lambda: seminar.truth(gid))
                for s, p in pages.items()
            }
            scan = Scan(lambda: seminar.truth(gid), pages)

            def after(order: str) -> None:
                for t in tables.values():  # both pages show the new clock, then the scan
                    t.wait_clock()
                tables["allied"].assert_in_step()
                scan(order)

            for t in tables.values():
                t.after = after
            try:
                figures = play(tables, scan)
            except Exception:
                for s, p in pages.items():
                    p.shot(f"tocs-double-blind-{s}-FAILED.png")
                (ARTIFACTS / "tocs-double-blind-FAILED.txt").write_text(
                    "\n".join(t for tb in tables.values() for t in tb.submitted)
                )
                raise
            for p in pages.values():
                p.received.append(p.page.content())
            outside = [u for p in pages.values() for u in p.outside if "/@fortawesome/" not in u]
            browser.close()
        # Voila's template links Font Awesome from a CDN (blocked; the bundle has the icons)
        assert outside == [], f"a page reached outside the seminar server: {outside[:3]}"
        for side, p in pages.items():  # everything, once more, against the final token sets
            assert find_leaks(p.received, scan.never[side]) == []
        # the scan can see: each page's payloads name its own units, which the other never saw
        assert find_leaks(pages["german"].received, scan.never["allied"])
        assert find_leaks(pages["allied"].received, scan.never["german"])
        (ARTIFACTS / "tocs-double-blind.txt").write_text(
            f"both pages open (server + Voila + counters drawn): {opened:.1f} s\n"
            f"whole test: {time.monotonic() - started:.1f} s\n"
            f"scans: {scan.orders} (after every order), payloads scanned: {scan.payloads}\n"
            f"never-seen tokens at the end: "
            f"{ {s: sorted(v) for s, v in scan.never.items()} }\n"
            + "".join(f"{k}: {v}\n" for k, v in figures.items())
        )
    finally:
        seminar.stop()


def play(tables: dict[str, Table], scan: Scan) -> dict[str, Any]:
    allied, german = tables["allied"], tables["german"]
    for t in tables.values():
        t.wait_clock()
        t.assert_in_step()
    scan("(the pages open)")
    done_off = german.orders.get_by_role("button", name="Done (german)")
    assert done_off.is_disabled()  # the Allies act: the German seat may not end their step
    a = tocs_impulse(allied, "allied", attack="hasty")
    assert a["move"] == a["attack"] == 1, a
    allied.shot("tocs-double-blind-allied-attack.png")
    german.shot("tocs-double-blind-german-waits.png")
    battle = battle_shown(allied, allied.done())  # the battle, the turn-end roll
    assert "German acts" in str(allied.mirror.clock), allied.mirror.clock
    assert allied.orders.get_by_role("button", name="Done (allied)").is_disabled()
    g = tocs_impulse(german, "german")
    assert g["move"] == 1, g
    german.done()
    allied.shot("tocs-double-blind-allied-end.png")
    german.shot("tocs-double-blind-german-end.png")
    return {
        "allied impulse": a,
        "german impulse": g,
        "battle": battle,
        "clock": str(allied.mirror.clock),
        "clicks": {s: t.clicks for s, t in tables.items()},
    }

"""Playing an owsnb ``App`` in a real browser with the mouse: a thin layer over a Playwright page.

:class:`Table` drives one App on a page (JupyterLab or a Voila seat dashboard) and keeps a
*mirror*: a local Game loaded with the same scenario and seed, to which every order the browser
submits is also given. The mirror says what to click (legal moves, attacks, empty destinations)
and what the page must show next (clock, previews, dice, counters' hexes); the game behind the
page (the notebook's kernel, or the seminar server's store) is read back and compared with it:
same clock, units and event log means the browser gave exactly those orders.

Every action is a real click (counters, hexes, buttons, lists); every wait is on a condition of
the page, never a fixed sleep. The ``mouse_*`` functions give one kind of order each, as a player
would: the verb, the counters and hexes on the map, the exact preview, Submit.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np

import owsnb
from owsnb.kernel.state import UMPIRE
from owsnb.widgets import geometry as G

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 30_000  # ms: the longest any click may take to show on the page

KERNEL_IDLE = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""

_EXECUTE = """async (code) => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const f = k.requestExecute({code, silent: false, store_history: false});
  let out = '', err = '';
  f.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'stream') out += msg.content.text;
    if (t === 'error') err += msg.content.ename + ': ' + msg.content.evalue;
  };
  await f.done;
  return [out, err];
}"""

SUMMARY = '''
def _owsnb_log(g):
    """The event log in canonical form (sets sorted, keys sorted, objects as text; the aliases
    of face-down counters, drawn from each game's random salt, as "unknown-*")."""
    import re
    from collections.abc import Mapping

    def alias(text):
        return re.sub(r"unknown-[0-9a-f]{8}", "unknown-*", text)

    def canon(x):
        if isinstance(x, str):
            return alias(x)
        if isinstance(x, Mapping):
            items = sorted(x.items(), key=lambda kv: str(kv[0]))
            return {alias(str(k)): canon(v) for k, v in items}
        if isinstance(x, (set, frozenset)):
            return sorted((canon(v) for v in x), key=repr)
        if isinstance(x, (list, tuple)):
            return [canon(v) for v in x]
        if x is None or isinstance(x, (bool, int, float)):
            return x
        return alias(str(x))

    return [[e.kind, canon(e.data), canon(e.visible_to), e.rule] for e in g.events]


def _owsnb_summary(g):
    """What the game holds now, in canonical JSON: the clock, every unit, and a digest of the
    whole event log (the same orders with the same seed give the same digest)."""
    import hashlib, json

    units = {
        u.id: [g.map.label(u.hex) if u.hex is not None else None, u.box, u.steps]
        for u in g.state.units.values()
    }
    return json.dumps({
        "seq": g.seq,
        "clock": str(g.clock),
        "over": bool(g.is_over()),
        "units": units,
        "digest": hashlib.sha256(json.dumps(_owsnb_log(g), sort_keys=True).encode()).hexdigest(),
    }, sort_keys=True)
'''
_local: dict[str, Any] = {}
exec(SUMMARY, _local)  # noqa: S102 - the same functions run in the notebook's kernel and here
summary: Callable[[Any], str] = _local["_owsnb_summary"]
event_log: Callable[[Any], list] = _local["_owsnb_log"]


def kernel_run(page: Any, code: str) -> str:
    """Execute *code* in the JupyterLab notebook's kernel (not in a cell); what it printed."""
    out, err = page.evaluate(_EXECUTE, code)
    if err:
        raise AssertionError(f"the kernel raised {err} running:\n{code}")
    return out


def open_notebook(page: Any, lab: Any, name: str, timeout: float = 180_000) -> float:
    """Open notebook *name* in JupyterLab, in a workspace of its own (a shared one would bring
    back the notebooks earlier tests opened), wait for its kernel, run every cell; returns the
    seconds from "run all" until the first counter and the grid are drawn."""
    workspace = Path(name).stem
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{name}?token={lab.token}")
    page.wait_for_function(KERNEL_IDLE, timeout=timeout)
    started = time.monotonic()
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".owsnb-app .leaflet-marker-icon .owsnb-stack", timeout=timeout)
    page.wait_for_selector(".owsnb-app path.owsnb-grid", timeout=timeout)
    return time.monotonic() - started


def shot(page: Any, name: str) -> Path:
    """A screenshot of the window under ``test-artifacts/``."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Table:
    """One App on a page, played with the mouse, with its mirror game.

    Args:
        page: the Playwright page.
        index: which ``.owsnb-app`` of the page (in page order).
        mirror: a local Game with the same scenario and seed, given the same orders.
        seat: the App's seat (``"umpire"``: its panel acts for whichever side acts).
        var: the notebook variable holding the App's game (JupyterLab: read through the kernel).
        truth: else a function returning the game behind the page (e.g. the server's store).
    """

    def __init__(
        self,
        page: Any,
        index: int,
        mirror: Any,
        *,
        seat: str = UMPIRE,
        var: str | None = None,
        truth: Callable[[], Any] | None = None,
    ):
        self.page = page
        self.root = page.locator(".owsnb-app").nth(index)
        self.mirror = mirror
        self.seat = seat
        self.var = var
        self.truth = truth
        self.orders = self.root.locator(".owsnb-orders")
        self.clicks = 0
        self.submitted: list[str] = []
        self.moved: list[str] = []
        self.after: Callable[[str], Any] | None = None  # called after each order shows
        self._scale: float | None = None

    def view(self) -> Any:
        """What this seat sees (on the mirror)."""
        return self.mirror.view(self.seat)

    # -- reading the page ----------------------------------------------------------------------
    def marker(self, uid: str) -> Any:
        return self.root.locator(f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{uid}'])")

    def stack_of(self, uid: str) -> list[str]:
        """The unit ids of the counter holding *uid*, top first, as the page draws them."""
        units = self.marker(uid).locator(".owsnb-stack").first.get_attribute("data-units")
        return str(units).split()

    def centre_of(self, uid: str) -> tuple[float, float]:
        box = self.marker(uid).first.bounding_box()
        assert box is not None, f"{uid} has no counter on the page"
        return _centre(box)

    def wait_clock(self) -> None:
        """Wait until the App's title and its order panel show the mirror's clock."""
        c = self.mirror.clock
        self.page.wait_for_function(
            """([root, clock, head]) => root.innerText.includes(clock)
                 && root.querySelector('.owsnb-orders').innerText.includes(head)""",
            arg=[self.root.element_handle(), str(c), f"Turn {c.turn}"],
            timeout=WAIT,
        )

    def panel_has(self, text: str) -> None:
        self.page.wait_for_function(
            "([el, text]) => el.innerText.includes(text)",
            arg=[self.orders.element_handle(), text],
            timeout=WAIT,
        )

    def shows(self, fragment: str) -> None:
        """Wait until the order panel shows the visible text of the HTML *fragment* (white
        space aside)."""
        want = visible_text(fragment)
        try:
            self.page.wait_for_function(
                "([el, want]) => el.innerText.replace(/\\s+/g, '').includes(want)",
                arg=[self.orders.element_handle(), want],
                timeout=WAIT,
            )
        except Exception as exc:  # noqa: BLE001 - say what differs
            shown = re.sub(r"\s+", "", self.orders.inner_text())
            raise AssertionError(f"the panel does not show\n{want}\nit shows\n{shown}") from exc

    def shot(self, name: str) -> Path:
        """A screenshot of this App alone under ``test-artifacts/``."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        self.root.screenshot(path=str(path))
        return path

    # -- geometry: where a hex is on the screen ------------------------------------------------
    def _proj(self, h: Any) -> np.ndarray:
        lay = self.mirror.map.layout
        return np.asarray(G.lonlat_to_pixels(lay, *lay.centre(h)), dtype=float)

    def scale(self) -> float:
        """Screen pixels per unit of the map plane, from the two counters furthest apart on the
        page (Leaflet scales both axes alike; the screen's y axis points down)."""
        if self._scale is None:
            view = self.view()
            stacks = self.root.locator(".leaflet-marker-icon .owsnb-stack")
            pts = []
            for i in range(stacks.count()):
                uid = str(stacks.nth(i).get_attribute("data-units")).split()[0]
                u = view.units.get(uid)
                if u is not None and u.hex is not None:
                    pts.append((self._proj(u.hex), np.asarray(self.centre_of(uid))))
            (pa, sa), (pb, sb) = max(
                ((a, b) for a in pts for b in pts),
                key=lambda ab: float(np.linalg.norm(ab[0][0] - ab[1][0])),
            )
            self._scale = float(np.linalg.norm(sa - sb) / np.linalg.norm(pa - pb))
        return self._scale

    def screen_of(self, h: Any, ref_unit: str) -> tuple[float, float]:
        """Where hex *h* is on the screen, measured from the counter of *ref_unit*."""
        rx, ry = self.centre_of(ref_unit)
        d = self._proj(h) - self._proj(self.view().units[ref_unit].hex)
        s = self.scale()
        return rx + s * float(d[0]), ry - s * float(d[1])

    def clickable(self, x: float, y: float) -> bool:
        """Does a click at (x, y) land on this App's map itself (not on a counter, a control,
        or outside the window)?"""
        return bool(
            self.page.evaluate(
                """([root, x, y]) => {
                     const el = document.elementFromPoint(x, y);
                     if (!el) return false;
                     const map = root.querySelector('.leaflet-container');
                     return map.contains(el) && !el.closest('.leaflet-marker-icon')
                       && !el.closest('.leaflet-control');
                   }""",
                [self.root.element_handle(), x, y],
            )
        )

    def show_map(self) -> None:
        """Scroll the map to the middle of the window (it fits whole: clicks measured after this
        land where they were measured, and Playwright needs no scrolling of its own)."""
        self.root.locator(".leaflet-container").evaluate(
            "el => el.scrollIntoView({block: 'center', inline: 'nearest'})"
        )

    # -- clicking ------------------------------------------------------------------------------
    def choose_verb(self, verb: str) -> None:
        """Click the order's verb among the panel's buttons."""
        self.orders.locator(".widget-toggle-buttons").get_by_role(
            "button", name=verb, exact=True
        ).click()
        self.clicks += 1
        self.page.wait_for_function(
            """([el, verb]) => {
                 const b = el.querySelector('.widget-toggle-buttons button.mod-active');
                 return !!b && b.innerText.trim() === verb;
               }""",
            arg=[self.orders.element_handle(), verb],
            timeout=WAIT,
        )

    def click_unit(self, uid: str) -> None:
        """Click the counter holding *uid*; on a stack (its click opens the stack's list and
        gives the order nothing), then the unit in the list."""
        self.show_map()
        self.marker(uid).first.click()
        self.clicks += 1
        if len(self.stack_of(uid)) > 1:  # the tray lists the stack, the picked unit highlighted
            tray = self.root.locator(".leaflet-control").get_by_role("button", name=uid, exact=True)
            tray.wait_for(timeout=WAIT)
            tray.click()
            self.clicks += 1
            self.page.wait_for_function(
                "el => el.classList.contains('mod-warning')",
                arg=tray.element_handle(),
                timeout=WAIT,
            )
        label = self.mirror.map.label(self.view().units[uid].hex)
        self.page.wait_for_function(  # the map's status line names the hex picked
            "([el, label]) => el.innerText.startsWith(label + ' ')",
            arg=[self.root.locator(".owsnb-map .widget-html").last.element_handle(), label],
            timeout=WAIT,
        )

    def click_hex(self, h: Any, ref_unit: str) -> None:
        """Click hex *h* of the map (empty of counters), measured from *ref_unit*'s counter."""
        self.show_map()
        x, y = self.screen_of(h, ref_unit)
        assert self.clickable(x, y), f"hex {self.mirror.map.label(h)} is covered or off screen"
        self.page.mouse.click(x, y)
        self.clicks += 1

    def select(self, param: str, value: str) -> None:
        """Pick *value* for the order parameter *param* from its list in the panel — opening
        the order's "options" first for an optional setting; a unit given by clicks (no list)
        is clicked in the off-map tray or on the map instead."""
        starts = re.compile(rf"^{re.escape(param)}")
        label = self.page.locator("label.widget-label", has_text=starts)
        box = self.orders.locator(".widget-dropdown").filter(has=label)
        select = box.locator("select").first
        if not select.is_visible():
            more = self.orders.get_by_role("button", name="options")
            if more.is_visible() and "mod-active" not in (more.get_attribute("class") or ""):
                more.click()  # the order's optional settings
                self.clicks += 1
            try:
                select.wait_for(timeout=3000)
            except Exception:  # noqa: BLE001 - not a list: a unit the page gives by a click
                if value in self.view().units:
                    chip = self.root.locator("button.owsnb-chip", has_text=value)
                    if chip.count():
                        chip.first.click()
                        self.clicks += 1
                    else:
                        self.click_unit(value)
                    return
                raise
        select.locator("option", has_text=value).first.wait_for(state="attached", timeout=WAIT)
        index = _option(select, lambda x: x == value or x.startswith(f"{value} "))
        select.select_option(index=index)
        self.clicks += 1

    def wait_reach(self, uid: str, x: float, y: float) -> int:
        """Wait for the reach overlay of *uid* over its counter and over (x, y); returns how
        many hexes the rule set says it reaches."""
        cx, cy = self.centre_of(uid)
        self.page.wait_for_function(
            """([root, pts]) => [...root.querySelectorAll('path.owsnb-reach')].some(p => {
                 const r = p.getBoundingClientRect();
                 return pts.every(([x, y]) => r.left <= x && x <= r.right
                                              && r.top <= y && y <= r.bottom);
               })""",
            arg=[self.root.element_handle(), [[cx, cy], [x, y]]],
            timeout=WAIT,
        )
        return len(self.mirror.ruleset.presentation.reach(self.view(), uid) or {})

    def wait_order(self, order: Any) -> None:
        """Wait until the panel shows *order* complete, and its preview or its refusal."""
        self.orders.locator(f"code:text-is('{order}')").first.wait_for(timeout=WAIT)
        self.page.wait_for_function(
            "el => el.innerText.includes('✓ legal') || el.innerText.includes('would be refused')",
            arg=self.orders.element_handle(),
            timeout=WAIT,
        )

    def assert_preview_shown(self, order: Any) -> Any:
        """The panel shows the exact preview of *order* that the rule set computes on the mirror,
        before anything is rolled: all its text as the widgets render it, and every outcome of
        its distribution with its exact probability."""
        from owsnb.widgets import render

        text = self.orders.inner_text()
        assert "would be refused" not in text, text
        assert f"✓ legal {order}" in " ".join(text.split()), text
        want = self.mirror.preview(order)
        if self.truth is not None:  # a served seat gets it through the wire, as data or as text
            from owsnb.server.wire import decode_value, encode_value

            want = decode_value(encode_value(want))
        self.shows(render.preview_html(want, None, order))
        dist = render.distribution_of(want)
        if dist is not None:
            flat = re.sub(r"\s+", "", self.orders.inner_text())
            for k, p in dist.items():
                assert re.sub(r"\s+", "", str(k)) in flat and str(Fraction(p)) in flat, (k, p)
        return want

    def submit(self, order: Any) -> Any:
        """Click Submit; wait for the result (the mirror's dice, its result, every counter it
        moved on its new hex); the mirror is given the order too."""
        self.orders.get_by_role("button", name="Submit").click()
        self.clicks += 1
        self.orders.locator(f".owsnb-result code:text-is('{order}')").first.wait_for(timeout=WAIT)
        return self._given(str(order))

    def done(self) -> Any:
        """Click Done for the side that acts now (the umpire's panel acts for it); wait for the
        page to show the mirror's next clock and every counter that moved."""
        side = self.mirror.clock.acting[0] if self.mirror.clock.acting else UMPIRE
        assert self.seat in (UMPIRE, side), f"{side} acts, not {self.seat}"
        # the umpire's own steps close with its one step control
        name = "Advance step" if side == UMPIRE else f"Done ({side})"
        self.orders.get_by_role("button", name=name).click()
        self.clicks += 1
        sub = self._given(f"{side}: done")
        self.wait_clock()
        return sub

    def _given(self, order: str) -> Any:
        where = self.positions()
        sub = self.mirror.submit(order)
        self.submitted.append(order)
        for e in sub.events:  # the same dice as the mirror's: the same seed, the same orders
            if e.kind == "die" and e.visible(self.seat):
                self.panel_has(f"{e.data.get('die')} rolled {e.data.get('result')}")
        if hasattr(sub.result, "_repr_html_"):
            self.shows(sub.result._repr_html_())
        self.moved = self.follow(where)
        if self.after is not None:
            self.after(order)
        return sub

    def positions(self) -> dict[str, Any]:
        """Where the seat's units stand now (the mirror's view, on the map only)."""
        return {u.id: u.hex for u in self.view().units.values() if u.hex is not None}

    def follow(self, before: dict[str, Any]) -> list[str]:
        """Wait until every counter the mirror moved since *before* stands on its new hex and
        every unit it took off the map (or out of sight) has no counter; the units moved."""
        now = self.positions()
        moved = [u for u, h in now.items() if before.get(u, h) != h]
        gone = [u for u in before if u not in now]
        if moved:
            ref = next(u for u, h in now.items() if before.get(u) == h and self.marker(u).count())
            for uid in moved:
                self.wait_at(uid, now[uid], ref)
        for uid in gone:
            self.page.wait_for_function(
                "([root, sel]) => !root.querySelector(sel)",
                arg=[self.root.element_handle(), f".owsnb-stack[data-units~='{uid}']"],
                timeout=WAIT,
            )
        return moved

    def wait_at(self, uid: str, h: Any, ref_unit: str, tol: float = 8) -> None:
        """Wait until *uid*'s counter stands on hex *h* on the screen."""
        x, y = self.screen_of(h, ref_unit)
        self.page.wait_for_function(
            """([root, sel, x, y, tol]) => [...root.querySelectorAll(sel)].some(el => {
                 const r = el.getBoundingClientRect();
                 return Math.abs(r.x + r.width / 2 - x) < tol
                   && Math.abs(r.y + r.height / 2 - y) < tol;
               })""",
            arg=[
                self.root.element_handle(),
                f".leaflet-marker-icon:has(.owsnb-stack[data-units~='{uid}'])",
                x,
                y,
                tol,
            ],
            timeout=WAIT,
        )

    @contextlib.contextmanager
    def recorded(self, name: str) -> Iterator[Table]:
        """Keep the orders given (``<name>-orders.txt``, to replay the game); on failure also a
        screenshot and the clock (``<name>-FAILED.*``)."""
        try:
            yield self
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"{name}-orders.txt").write_text("\n".join(self.submitted) + "\n")
        except BaseException:
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"{name}-FAILED.txt").write_text(
                f"clock: {self.mirror.clock}\norders:\n" + "\n".join(self.submitted) + "\n"
            )
            with contextlib.suppress(Exception):
                shot(self.page, f"{name}-FAILED.png")
            raise

    # -- the game behind the page --------------------------------------------------------------
    def behind(self) -> dict[str, Any]:
        """The summary of the game behind the page."""
        if self.truth is not None:
            return json.loads(summary(self.truth()))
        return json.loads(kernel_run(self.page, f"{SUMMARY}\nprint(_owsnb_summary({self.var}))"))

    def _behind_log(self) -> list:
        if self.truth is not None:
            return json.loads(json.dumps(event_log(self.truth())))
        code = f"{SUMMARY}\nimport json\nprint(json.dumps(_owsnb_log({self.var})))"
        return json.loads(kernel_run(self.page, code))

    def assert_in_step(self) -> dict[str, Any]:
        """The game behind the page is the mirror: same clock, units and event log."""
        got = self.behind()
        want = json.loads(summary(self.mirror))
        if got != want:
            mine, theirs = json.loads(json.dumps(event_log(self.mirror))), self._behind_log()
            first = next(
                (i for i, (a, b) in enumerate(zip(theirs, mine, strict=False)) if a != b),
                min(len(mine), len(theirs)),
            )
            raise AssertionError(
                f"{_diff(got, want)}\nevent {first + 1}: page's game "
                f"{theirs[first : first + 1]} != mirror {mine[first : first + 1]}\n"
                f"orders: {self.submitted}"
            )
        return got


def _option(select: Any, match: Callable[[str], bool]) -> int:
    """The index of the first option of *select* whose label matches (ipywidgets writes the
    spaces of a label as no-break spaces)."""
    labels = select.locator("option").evaluate_all(
        "os => os.map(o => o.textContent.replace(/\\u00a0/g, ' '))"
    )
    return next(i for i, x in enumerate(labels) if match(x))


# -- orders given with the mouse ---------------------------------------------------------------
def enemy_hexes(t: Table, side: str) -> set[Any]:
    """Hexes of the enemy units *side* itself sees (its own view, even at the umpire's seat:
    the side played never steers by what it has not detected)."""
    view = t.mirror.view(side)
    return {u.hex for u in view.units.values() if u.side != side and u.hex is not None}


def next_to(enemies: set[Any]) -> Callable[[str, Any], bool]:
    """Ranks moves for :func:`mouse_move`: to a hex next to *enemies* first."""
    return lambda uid, h: not any(n in enemies for n in h.neighbours())


def destinations(t: Table, uid: str, make: Callable[[Any], Any]) -> list[tuple[Any, Any]]:
    """Legal (hex, order) moves of *uid* to hexes without a counter on the seat's map,
    farthest first."""
    g, view = t.mirror, t.view()
    here = view.units[uid].hex
    occupied = {u.hex for u in view.units.values() if u.hex is not None}
    reach = g.ruleset.presentation.reach(view, uid) or {}
    out = []
    for h in sorted(reach, key=lambda h: (-h.distance(here), h)):
        if h == here or h in occupied:
            continue
        order = make(h)
        try:
            g.check(order)
        except owsnb.IllegalOrderError:
            continue
        out.append((h, order))
    return out


def mouse_move(t: Table, side: str, verb: str = "move", prefer: Any = None) -> Any:
    """Move a unit with the mouse: the verb, the counter (its reach shows, over the hex chosen),
    an empty hex in reach (the order and "legal" show), Submit (the counter moves there).
    *prefer(uid, hex)* ranks the moves (default: the first unit's farthest move). Returns the
    order, or ``None`` when no legal move goes to a hex the mouse can reach."""
    spec = t.mirror.legal_orders(side)[verb]
    t.show_map()

    def plans() -> Iterator[tuple[str, Any, Any]]:
        for uid in spec.candidates["unit"]:
            if uid in t.view().units and t.marker(uid).count():
                make = lambda h, u=uid: spec.type.make(side, unit=u, to=t.mirror.map.label(h))  # noqa: E731
                for h, order in destinations(t, uid, make):
                    yield uid, h, order

    ranked = plans() if prefer is None else sorted(plans(), key=lambda p: prefer(p[0], p[1]))
    for uid, dest, order in ranked:
        if not t.clickable(*t.screen_of(dest, uid)):
            continue
        t.choose_verb(verb)
        t.click_unit(uid)
        assert t.wait_reach(uid, *t.screen_of(dest, uid)) > 1
        t.click_hex(dest, uid)
        t.wait_order(order)
        t.assert_preview_shown(order)
        t.submit(order)
        assert uid in t.moved, f"{uid}'s counter did not move on the page"
        return order
    return None


def mouse_verb_only(t: Table, side: str, verb: str) -> Any:
    """An order without parameters: its verb (the order is complete) and its preview."""
    order = t.mirror.legal_orders(side)[verb].type.make(side)
    t.choose_verb(verb)
    t.wait_order(order)
    t.assert_preview_shown(order)
    return order


def mouse_unit_order(t: Table, side: str, verb: str, uid: str) -> Any:
    """An order on one unit: its verb, then its counter; the preview shows."""
    order = t.mirror.legal_orders(side)[verb].type.make(side, unit=uid)
    t.choose_verb(verb)
    t.click_unit(uid)
    t.wait_order(order)
    t.assert_preview_shown(order)
    return order


def mouse_suggested(t: Table, side: str, verb: str, index: int = 0) -> Any:
    """An order from the panel's ready-made suggestions: the verb, the suggestions button (when
    the list is not already offered), a suggestion from the list, Use; the preview shows."""
    order = t.mirror.legal_orders(side)[verb].examples[index]
    t.choose_verb(verb)
    quick = t.orders.locator(".widget-hbox:has(button:text-is('Use')) select").first
    if not quick.is_visible():  # offered unasked only for values no click or list gives
        t.orders.locator("button.widget-toggle-button", has_text="suggestions").click()
        t.clicks += 1
    quick.wait_for(timeout=WAIT)
    text = str(order).partition(": ")[2]
    t.page.wait_for_function(
        "([el, text]) => [...el.options]"
        ".some(o => o.textContent.replace(/\\u00a0/g, ' ') === text)",
        arg=[quick.element_handle(), text],
        timeout=WAIT,
    )
    quick.select_option(index=_option(quick, lambda x: x == text))
    t.orders.get_by_role("button", name="Use", exact=True).click()
    t.clicks += 2
    t.wait_order(order)
    t.assert_preview_shown(order)
    return order


# -- reading HTML as the browser shows it ------------------------------------------------------
_VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source", "area"}


class _Text(HTMLParser):
    """The text a browser shows of an HTML fragment: no <style>, no hidden text fallback."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.hidden: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _VOID:
            return
        cls = dict(attrs).get("class") or ""
        if tag in ("style", "script") or "owsnb-fallback" in cls.split() or self.hidden:
            self.hidden.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.hidden and self.hidden[-1] == tag:
            self.hidden.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)


def visible_text(fragment: str) -> str:
    """The visible text of an HTML fragment, every white space removed.

    >>> visible_text("<style>b{}</style><b>A &amp; B</b><br>c<pre class='owsnb-fallback'>x</pre>")
    'A&Bc'
    """
    p = _Text()
    p.feed(fragment)
    p.close()
    return re.sub(r"\s+", "", "".join(p.out))


def _diff(got: dict, want: dict) -> str:
    lines = [
        f"{k}: page's game {got.get(k)!r} != mirror {want.get(k)!r}"
        for k in want
        if k != "units" and got.get(k) != want.get(k)
    ]
    for u, w in want.get("units", {}).items():
        if got.get("units", {}).get(u) != w:
            lines.append(f"unit {u}: page's game {got['units'].get(u)} != mirror {w}")
    return "\n".join(lines[:20])


def notebook_game(path: Path, var: str) -> tuple[str, int]:
    """The scenario and seed the notebook loads into *var*."""
    cells = json.loads(path.read_text())["cells"]
    src = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    m = re.search(rf'{var} = owsnb\.load\("([^"]+)", seed=(\d+)', src)
    assert m, f"{path.name} loads no game into {var}"
    return m.group(1), int(m.group(2))

"""Clicks on a real page: :class:`Clicker` plays the clicks of :mod:`owsnb.testing.clicks` on an
App in Chromium — the order's button, counters on the map, a stack's list, the off-map tray, an
empty hex at its place on the screen, a choice in a list, Submit, Done — and times each from the
click to what it shows (the map's selection and the order line, the result, the next step).

Every click is a mouse click on what the page shows; the hex under the pointer is found from
where the page draws the counters (:class:`tests.browser.driver.Table`), never typed.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from owsnb.kernel.state import UMPIRE
from owsnb.testing.clicks import Click
from tests.browser.driver import WAIT, Table

__all__ = ["Clicker", "percentile"]


def percentile(xs: list[float], q: float) -> float:
    """The *q*-quantile of *xs* (nearest rank)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class Clicker(Table):
    """An App on a page, played by :class:`~owsnb.testing.clicks.Click` s, with its mirror game
    (see :class:`tests.browser.driver.Table`); ``latency`` holds the seconds from each click to
    what it shows, by kind (``map``, ``submit``, ``done``)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.latency: dict[str, list[float]] = {"map": [], "submit": [], "done": []}

    # -- what the page shows -------------------------------------------------------------------
    def _panel_text(self) -> str:
        return str(self.orders.inner_text())

    def _info_changed(self, before: str) -> None:
        """Wait until the order panel shows something else than *before* (what the click gave)."""
        self.page.wait_for_function(
            "([el, before]) => el.innerText !== before",
            arg=[self.orders.element_handle(), before],
            timeout=WAIT,
        )

    # -- the clicks ----------------------------------------------------------------------------
    def play(self, clicks: list[Click], order: str | None = None) -> Any:
        """Play *clicks* (the last one Submit); returns the mirror's submission."""
        sub = None
        for c in clicks:
            if c.kind == "verb":
                self.choose_verb(c.what)
            elif c.kind in ("marker", "stack", "chip", "hex"):
                before = self._panel_text()
                t0 = time.monotonic()
                self._map_click(c)
                if c.kind != "stack":
                    self._info_changed(before)
                self.latency["map"].append(time.monotonic() - t0)
            elif c.kind == "select":
                name, value = c.what
                self.select(name, value)
            elif c.kind == "submit":
                assert order is not None
                self.wait_order(order)
                self.assert_preview_shown(order)
                t0 = time.monotonic()
                sub = self.submit(order)
                self.latency["submit"].append(time.monotonic() - t0)
            else:  # pragma: no cover
                raise ValueError(c.kind)
        return sub

    def _map_click(self, c: Click) -> None:
        view = self.view()
        self.show_map()
        if c.kind == "marker":
            self.marker(c.what).first.click()
            self.clicks += 1
        elif c.kind == "stack":
            h = view.map.hex(c.what)
            uid = next(u.id for u in view.units.values() if u.hex == h)
            self.marker(uid).first.click()
            self.clicks += 1
            self.root.locator(".leaflet-control button.owsnb-chip").first.wait_for(timeout=WAIT)
        elif c.kind == "chip":
            chip = self.root.locator("button.owsnb-chip").filter(has_text=c.what)
            chip = chip.locator(f"xpath=self::*[normalize-space(.)='{c.what}']").first
            chip.click()
            self.clicks += 1
        elif c.kind == "hex":
            h = view.map.hex(c.what)
            ref = next(u.id for u in view.units.values() if u.hex is not None)
            self.click_hex(h, ref)

    def step_done(self) -> Any:
        """Close the step for the side acting now: its Done, or the umpire's Advance step."""
        side = self.mirror.clock.acting[0] if self.mirror.clock.acting else UMPIRE
        name = "Advance step" if side == UMPIRE else f"Done ({side})"
        button = self.orders.get_by_role("button", name=name)
        button.wait_for(timeout=WAIT)
        self.page.wait_for_function("b => !b.disabled", arg=button.element_handle(), timeout=WAIT)
        t0 = time.monotonic()
        button.click()
        self.clicks += 1
        sub = self._given(f"{side}: done")
        self.wait_clock()
        self.latency["done"].append(time.monotonic() - t0)
        return sub

    def summary(self) -> dict[str, Any]:
        """Clicks and click-to-visible latencies (p50/p95, seconds) by kind."""
        out: dict[str, Any] = {"clicks": self.clicks}
        for k, xs in self.latency.items():
            out[k] = {
                "n": len(xs),
                "p50": percentile(xs, 0.5),
                "p95": percentile(xs, 0.95),
                "mean": statistics.fmean(xs) if xs else float("nan"),
            }
        return out

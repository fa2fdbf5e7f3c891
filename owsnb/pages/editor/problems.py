"""What the loader says of the scenario, as the editor shows it: the Problems tab (each problem
with its key path) and, on the map, the hexes concerned outlined and the counters of the units
concerned."""

from __future__ import annotations

import re

from owsnb.pages.editor.base import CSS, MUTED, EditorPart, esc
from owsnb.pages.editor.mapping import collection
from owsnb.widgets import geometry as G

_PROBLEM_STYLE = {
    "color": "#dc2626",
    "weight": 3.5,
    "fill": True,
    "fillColor": "#dc2626",
    "fillOpacity": 0.15,
    "dashArray": "6 3",
    "className": "owsnb-problem",
}


def _css_string(text: str) -> str:
    """*text* inside a quoted CSS attribute selector (quotes, backslashes and markup escaped)."""
    return re.sub(r"[^A-Za-z0-9_.:-]", lambda m: f"\\{ord(m.group()):x} ", text)


class ProblemsPart(EditorPart):
    """The problems, listed and on the map (see the module docstring)."""

    def _draw_problems(self) -> None:
        if self.problem_layer is None or self.table is None:
            return
        view = self.table.view
        feats = []
        for p in self.doc.problems:
            label = p.hex
            if label is None:
                continue
            try:
                h = view.map.hex(label)
            except Exception:  # noqa: BLE001 - a hex off the map has nothing to outline
                continue
            if h not in view.map.hexes:
                continue
            feats.append(
                {
                    "type": "Feature",
                    "properties": {"style": _PROBLEM_STYLE, "where": p.where, "unit": p.unit},
                    "geometry": G.hex_outline(self.mapview.geo, h),  # type: ignore[union-attr]
                }
            )
        data = collection(feats)
        if self.problem_layer.data != data:
            self.problem_layer.data = data
        units = sorted({p.unit for p in self.doc.problems if p.unit})
        css = "".join(
            f".owsnb-editor .owsnb-stack[data-units~='{_css_string(u)}']"
            "{outline:3px dashed #dc2626;outline-offset:3px;border-radius:4px}"
            for u in units
        )
        value = f"<style>{css}</style>" if css else ""
        if self.problem_css.value != value:
            self.problem_css.value = value

    def _problems_html(self) -> str:
        if not self.doc.problems:
            return (
                f"<div style='{CSS};color:#15803d'>No problems: the game loads this scenario.</div>"
            )
        items = "".join(
            f"<li><code>{esc(p.where or '(file)')}</code> {esc(p.message)}"
            + (
                f" <span style='{MUTED}'>(unit {esc(p.unit)}"
                + (f", hex {esc(p.hex)}" if p.hex else "")
                + ")</span>"
                if p.unit
                else (f" <span style='{MUTED}'>(hex {esc(p.hex)})</span>" if p.hex else "")
            )
            + "</li>"
            for p in self.doc.problems
        )
        return (
            f"<div class='owsnb-problems' style='{CSS}'>The loader the game uses says "
            f"(outlined in red on the map where it concerns a hex):<ul>{items}</ul></div>"
        )

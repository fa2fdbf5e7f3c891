"""Benchmark: the scenario editor — what one edit costs on each bundled scenario (prints a table;
no assertions).

Run: ``python bench/editor.py [--repeat 7]``. An edit is one click's work in
:class:`owsnb.authoring.document.ScenarioDocument`: apply it, write the YAML it would save, check
that text with the game's loader (``load_text`` + ``build_state``); *page* adds what the editor
page does after it (:class:`owsnb.pages.editor.Editor`: the map's overlays, a changed grid sent
again, the panels). Medians of the repeats, milliseconds, on the machine as it is (the page's
figures exclude the browser and the wire).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from owsnb.authoring.document import ScenarioDocument
from owsnb.pages.editor import Editor
from owsnb.scenario import list_scenarios


def timed(fn, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    print(
        "| scenario | hexes | units | open | move a unit | paint a hex | page: move | page: paint |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in list_scenarios():
        t = time.perf_counter()
        doc = ScenarioDocument(name, path=tmp / f"{name}.yaml")
        opened = (time.perf_counter() - t) * 1000
        labels = doc.labels()
        uid = doc.unit_ids()[0] if doc.unit_ids() else None
        free = [x for x in labels if not doc.units_at(x)][:2]
        terrains = doc.terrains()
        flip = iter(range(10**6))

        def move(d=doc, u=uid, free=free, flip=flip) -> None:
            if u is not None:
                d.move_unit(u, hex=free[next(flip) % 2])

        def paint(d=doc, free=free, terrains=terrains, flip=flip) -> None:
            d.paint(free[0], terrains[next(flip) % 2])

        ed = Editor(name, path=tmp / f"page-{name}.yaml")
        ed.tool.value = "move"

        def page_move(e=ed, u=uid, free=free, flip=flip) -> None:
            if u is not None:
                e.doc.move_unit(u, hex=free[next(flip) % 2])
                e._after_edit()

        def page_paint(e=ed, free=free, terrains=terrains, flip=flip) -> None:
            e.doc.paint(free[0], terrains[next(flip) % 2])
            e._after_edit()

        cells = [timed(f, args.repeat) for f in (move, paint, page_move, page_paint)]
        ed.close()
        print(
            f"| {name} | {len(labels)} | {len(doc.unit_ids())} | {opened:.0f} ms | "
            + " | ".join(f"{c:.0f} ms" for c in cells)
            + " |"
        )


if __name__ == "__main__":
    main()

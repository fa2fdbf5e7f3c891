"""Every notebook under notebooks/ is executed top to bottom (fresh kernel, no network)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted(
    p
    for p in (Path(__file__).parent.parent / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", NOTEBOOKS, ids=[str(p.relative_to(p.parents[1])) for p in NOTEBOOKS]
)
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    env_home = os.environ.get("OWSNB_HOME")
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute(
        env={**os.environ, "OWSNB_HOME": env_home or str(tmp_path), "OWSNB_TESTING": "1"}
    )
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    if path.name == "03-time-and-distance.ipynb":  # each answer is shown on a live map
        maps = [
            c
            for c in nb.cells
            if c.cell_type == "code"
            and "projected(" in c.source
            and any(
                "application/vnd.jupyter.widget-view+json" in o.get("data", {})
                for o in c.get("outputs", [])
            )
        ]
        assert len(maps) >= 4, "notebook 03: carriers, fighters, a convoy, a brigade on maps"

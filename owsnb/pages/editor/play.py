"""Save, play and serve what the editor made: Save writes the YAML file (``owsnb.load`` and
``owsnb validate`` read it unchanged), *Play solo* opens the table on it, *Serve as seminar* runs
``owsnb serve`` on it (:class:`Seminar`) and shows the seat links."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ipywidgets as W

from owsnb.kernel.errors import OwsnbError
from owsnb.kernel.state import UMPIRE
from owsnb.pages.editor.base import CSS, MUTED, EditorPart, esc
from owsnb.widgets.controls import button


class PlayPart(EditorPart):
    """Save, Play solo, Serve as seminar (see the module docstring)."""

    def save(self) -> Path | None:
        """Write the scenario file (and its coastline beside it, for a new map); ``None`` if it
        could not be written (the message says why; nothing is lost)."""
        try:
            path = self.doc.save()
        except OSError as exc:
            self._say(f"could not save to {self.doc.path}: {exc.strerror or exc}", error=True)
            return None
        n = len(self.doc.problems)
        self._say(
            f"saved {path}"
            + (
                f" — with {n} problem(s): the game will not load it until they are fixed"
                if n
                else ""
            )
        )
        self._after_edit()
        return path

    def play(self, seed: int | None = None) -> Any:
        """Save, then open the table on the saved file here (the umpire's seat: solo study);
        ``Back to the editor`` returns. Returns the game (``None`` if it cannot load)."""
        import owsnb
        from owsnb.api import games_dir
        from owsnb.widgets import App

        path = self.save()
        if path is None:
            return None
        if not self.doc.valid:
            self._say("fix the problems first: the game cannot load this scenario", error=True)
            self.tabs.selected_index = 4
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        folder = games_dir() / "editor"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            game = owsnb.load(path, seed=seed, save=folder / f"{self.doc.data['id']}-{stamp}.owsnb")
        except OwsnbError as exc:
            self._say(str(exc), error=True)
            return None
        self._close_play()
        self._game = game
        self.app = App(game, seat=UMPIRE, map_height=self.map_height)
        back = button("Back to the editor", self._stop_play, icon="arrow-left", style="info")
        note = W.HTML(
            f"<span style='{CSS};{MUTED}'>playing {esc(path.name)} (seed "
            f"{esc(game.meta.get('seed'))}), autosaved: {esc(game.meta.get('store', ''))}</span>"
        )
        self.play_box.children = (
            W.HBox([back, note], layout=W.Layout(align_items="center")),
            self.app,
        )
        self.body.layout.display = "none"
        self.play_box.layout.display = "flex"
        return game

    def serve(self) -> dict[str, Any] | None:
        """Save, then run ``owsnb serve`` on the file (a child of this kernel: it stops with it)
        and show the umpire's and the seats' links. Returns the links (``None`` on failure)."""
        path = self.save()
        if path is None or not self.doc.valid:
            if path is not None:
                self._say("fix the problems first: the server cannot load this scenario", True)
            return None
        self.stop_serving()
        self.seminar = Seminar(path)
        try:
            links = self.seminar.wait()
        except RuntimeError as exc:
            self._say(str(exc), error=True)
            self.stop_serving()
            return None
        rows = "".join(
            f"<tr><td><b>{esc(k)}</b></td><td><a href='{esc(v.get('link') or v['api'])}' "
            f"target='_blank'>{esc(v.get('link') or v['api'])}</a></td></tr>"
            for k, v in links["seats"].items()
        )
        stop = button("Stop the seminar", self.stop_serving, icon="stop", style="danger")
        self.play_box.children = (
            W.HTML(
                f"<div style='{CSS}'><b>Seminar: {esc(self.doc.data.get('title', ''))}</b> "
                f"({esc(path.name)}) — give each player "
                f"their link; it runs as long as this page's kernel (for a lasting one: "
                f"<code>owsnb serve {esc(path)}</code>).<table>{rows}</table></div>"
            ),
            stop,
        )
        self.play_box.layout.display = "flex"
        return links

    def stop_serving(self) -> None:
        """Stop the seminar started by :meth:`serve`."""
        if self.seminar is not None:
            self.seminar.stop()
            self.seminar = None
            self.play_box.children = ()
            self.play_box.layout.display = "none"

    def _stop_play(self) -> None:
        self._close_play()
        self.body.layout.display = "flex"
        self.play_box.layout.display = "none"

    def _close_play(self) -> None:
        if self.app is not None:
            self.app.close()
            self.app = None
        self._game = None
        self.play_box.children = ()


class Seminar:
    """``owsnb serve FILE`` as a child process (stopped with this kernel)."""

    def __init__(self, path: Path):
        import socket
        import tempfile

        from owsnb.api import games_dir

        def free() -> int:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                return int(s.getsockname()[1])

        self.tmp = Path(tempfile.mkdtemp(prefix="owsnb-seminar-"))
        self.links = self.tmp / "links.json"
        store = games_dir() / "seminars" / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}.owsnb"
        store.parent.mkdir(parents=True, exist_ok=True)
        from owsnb.server.cli import _die_with_parent

        self.log = open(self.tmp / "serve.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "owsnb", "serve", str(path), "--store", str(store),
             "--port", str(free()), "--voila-port", str(free()), "--voila-pool", "1",
             "--links-file", str(self.links)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=_die_with_parent,
        )  # fmt: skip

    def wait(self, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "owsnb serve stopped: "
                    + (self.tmp / "serve.log").read_text(errors="replace")[-600:]
                )
            if self.links.is_file():
                try:
                    return json.loads(self.links.read_text())
                except ValueError:
                    pass
            time.sleep(0.2)
        raise RuntimeError("owsnb serve did not start in time")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()

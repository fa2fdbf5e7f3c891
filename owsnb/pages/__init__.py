"""Pages: what Voila serves and JupyterLab shows beside the table.

* :mod:`owsnb.pages.seat` — a seat's dashboard from its link (``seat_page``, ``umpire_page``);
* :mod:`owsnb.pages.demo` — the solo demo offered by a seat page opened without a link;
* :mod:`owsnb.pages.console` — the umpire's console (sequence, adjudication, assessment, seats);
* :mod:`owsnb.pages.editor` — the scenario editor (``owsnb.Editor``, ``editor_page``), and
  :mod:`owsnb.pages.cli` — ``owsnb edit FILE``, which serves it.

Pages are widgets over a :class:`~owsnb.kernel.game.Game` or a seat client
(:func:`owsnb.connect`); the authority server (:mod:`owsnb.server`) renders nothing.
"""

"""Rich display: escaped HTML reprs with text fallbacks, display options, and what the table
draws the same way for every rule set.

* :mod:`~owsnb.display.html` — reprs of kernel objects (games, views, units, legal orders);
* :mod:`~owsnb.display.results` — every rule set's results in words (one
  :class:`~owsnb.kernel.result.Result` record rendered once) and the results feed;
* :mod:`~owsnb.display.symbols` — counters from one table of APP-6 frames and glyphs, OWS die
  colours, shields and step boxes, drawn from a rule set's :class:`~owsnb.kernel.presentation.Counter`;
* :mod:`~owsnb.display.palette` — the map's default terrain styles;
* :mod:`~owsnb.display.svg` — static hex-grid pictures.

Kernel objects import these renderers lazily (inside ``_repr_html_``), so the kernel never
depends on them.
"""

from owsnb.display.options import OPTIONS, set_options

__all__ = ["OPTIONS", "set_options"]

"""Rich display for notebooks: escaped HTML reprs with text fallbacks, and display options.

Kernel objects import these renderers lazily (inside ``_repr_html_``), so the kernel never
depends on them.
"""

from owsnb.display.options import OPTIONS, set_options

__all__ = ["OPTIONS", "set_options"]

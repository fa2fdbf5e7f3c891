"""Hypothesis strategies for owsnb objects (the only owsnb module that imports hypothesis).

Example:
    >>> from hypothesis import find
    >>> find(hexes(), lambda h: h.q > 3)
    Hex(4, 0)
"""

from __future__ import annotations

from hypothesis import strategies as st

from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.offset import OffsetSystem

__all__ = ["hexes", "offset_systems"]


def hexes(max_coord: int = 50) -> st.SearchStrategy[Hex]:
    """Hexes whose ``q`` and ``r`` both lie in ``[-max_coord, max_coord]``.

    Args:
        max_coord: largest absolute coordinate.

    Example:
        >>> from hypothesis import find
        >>> find(hexes(5), lambda h: h.distance(Hex(0, 0)) >= 7).length()
        7
    """
    coord = st.integers(min_value=-max_coord, max_value=max_coord)
    return st.builds(Hex, coord, coord)


def offset_systems() -> st.SearchStrategy[OffsetSystem]:
    """Every orientation and parity, with a few numbering origins and label widths.

    Example:
        >>> from hypothesis import find
        >>> find(offset_systems(), lambda o: o.orientation == "pointy")
        OffsetSystem(orientation='pointy', parity='odd', first_col=0, first_row=0, digits=2)
    """
    return st.builds(
        OffsetSystem,
        orientation=st.sampled_from(["flat", "pointy"]),
        parity=st.sampled_from(["odd", "even"]),
        first_col=st.integers(min_value=0, max_value=2),
        first_row=st.integers(min_value=0, max_value=2),
        digits=st.integers(min_value=2, max_value=4),
    )

"""Printed hex labels such as ``0304``: offset coordinates, used only at the edges.

The kernel works in axial :class:`~owsnb.kernel.hexgrid.Hex` coordinates everywhere; an
:class:`OffsetSystem` converts to and from the column/row numbers printed on a paper map.

Printed column ``c`` and row ``r`` become the 0-based offset column ``c - first_col`` and row
``r - first_row``, then the usual conversion applies: flat-topped maps shift every other
*column* down ("odd-q" shifts the odd 0-based columns, "even-q" the even ones), pointy-topped
maps shift every other *row* right ("odd-r" / "even-r"). Printed ``(first_col, first_row)``
is always ``Hex(0, 0)``; rows grow south and columns east.

Example:
    >>> ows = OffsetSystem()
    >>> ows.from_label("0304"), ows.to_label(Hex(2, 2))
    (Hex(2, 2), '0304')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from owsnb.kernel.errors import InvalidHexError
from owsnb.kernel.hexgrid import Hex

__all__ = ["OffsetSystem", "Hex"]


def _int(value: object, name: str) -> int:
    if type(value) is not int:
        raise InvalidHexError(f"{name} must be an int, got {type(value).__name__} ({value!r})")
    return value


@dataclass(frozen=True)
class OffsetSystem:
    """How a printed map numbers its hexes.

    Attributes:
        orientation: ``"flat"`` (columns are offset) or ``"pointy"`` (rows are offset).
        parity: ``"odd"`` or ``"even"``: which 0-based columns (flat) or rows (pointy) are
            shifted down (flat) or right (pointy).
        first_col: printed number of the first column.
        first_row: printed number of the first row.
        digits: digits per component in a label (2 gives ``CCRR``).

    Example:
        >>> OffsetSystem("pointy", "even", first_col=0, first_row=0).to_label(Hex(1, 1))
        '0201'
    """

    orientation: Literal["flat", "pointy"] = "flat"
    parity: Literal["odd", "even"] = "odd"
    first_col: int = 1
    first_row: int = 1
    digits: int = 2

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise ValueError(f"orientation must be 'flat' or 'pointy', got {self.orientation!r}")
        if self.parity not in ("odd", "even"):
            raise ValueError(f"parity must be 'odd' or 'even', got {self.parity!r}")
        for name in ("first_col", "first_row", "digits"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be an int, got {getattr(self, name)!r}")
        if self.digits < 1:
            raise ValueError(f"digits must be >= 1, got {self.digits!r}")

    @property
    def label_form(self) -> str:
        """The expected label shape, e.g. ``'CCRR'``.

        Example:
            >>> OffsetSystem(digits=3).label_form
            'CCCRRR'
        """
        return "C" * self.digits + "R" * self.digits

    # --- offset <-> axial --------------------------------------------------------------------
    def to_offset(self, h: Hex) -> tuple[int, int]:
        """Printed ``(column, row)`` numbers of a hex (may be out of the printed range).

        Example:
            >>> OffsetSystem().to_offset(Hex(3, -1))
            (4, 1)
        """
        if not isinstance(h, Hex):
            raise InvalidHexError(f"expected a Hex, got {h!r}")
        q, r = h
        if self.orientation == "flat":
            col = q
            shift = (q - (q & 1)) // 2 if self.parity == "odd" else (q + (q & 1)) // 2
            row = r + shift
        else:
            row = r
            shift = (r - (r & 1)) // 2 if self.parity == "odd" else (r + (r & 1)) // 2
            col = q + shift
        return col + self.first_col, row + self.first_row

    def from_offset(self, col: int, row: int) -> Hex:
        """The hex at printed ``(column, row)``.

        Raises:
            InvalidHexError: if a number is not an int.

        Example:
            >>> OffsetSystem().from_offset(4, 1)
            Hex(3, -1)
        """
        col = _int(col, "column") - self.first_col
        row = _int(row, "row") - self.first_row
        if self.orientation == "flat":
            shift = (col - (col & 1)) // 2 if self.parity == "odd" else (col + (col & 1)) // 2
            return Hex(col, row - shift)
        shift = (row - (row & 1)) // 2 if self.parity == "odd" else (row + (row & 1)) // 2
        return Hex(col - shift, row)

    # --- labels ------------------------------------------------------------------------------
    def to_label(self, h: Hex) -> str:
        """The printed label of a hex, column then row, each zero-padded to ``digits``.

        Raises:
            InvalidHexError: if the hex lies before the first printed column or row, or needs
                more than ``digits`` digits (the label would be ambiguous).

        Example:
            >>> OffsetSystem().to_label(Hex(0, 0))
            '0101'
            >>> OffsetSystem().to_label(Hex(-2, 0))  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            owsnb.kernel.errors.InvalidHexError: Hex(-2, 0) has no label: printed column -1 is ...
        """
        col, row = self.to_offset(h)
        d = self.digits
        for name, value in (("column", col), ("row", row)):
            if value < 0:
                raise InvalidHexError(
                    f"{h!r} has no label: printed {name} {value} is negative (off the map)"
                )
            if value >= 10**d:
                raise InvalidHexError(
                    f"{h!r} has no label: printed {name} {value} needs more than {d} digits; "
                    f"use OffsetSystem(digits={len(str(value))}, ...)"
                )
        return f"{col:0{d}d}{row:0{d}d}"

    def from_label(self, label: str) -> Hex:
        """The hex of a printed label such as ``"0304"`` (surrounding whitespace ignored).

        Raises:
            InvalidHexError: if the label is not exactly ``2 * digits`` ASCII digits.

        Example:
            >>> OffsetSystem().from_label(" 0304 ")
            Hex(2, 2)
            >>> OffsetSystem().from_label("03x4")  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            owsnb.kernel.errors.InvalidHexError: '03x4' is not a hex label: expected 4 digits ...
        """
        expected = f"expected {2 * self.digits} digits {self.label_form} (column, row)"
        if not isinstance(label, str):
            raise InvalidHexError(
                f"{label!r} is not a hex label: {expected} as a string, e.g. '0304'"
            )
        s = label.strip()
        if len(s) != 2 * self.digits or not (s.isascii() and s.isdigit()):
            raise InvalidHexError(f"{label!r} is not a hex label: {expected}")
        d = self.digits
        return self.from_offset(int(s[:d]), int(s[d:]))

    def rectangle(self, cols: int, rows: int) -> list[Hex]:
        """All hexes of a ``cols`` x ``rows`` printed map, column by column (label order).

        Raises:
            ValueError: if ``cols`` or ``rows`` is negative or not an int.

        Example:
            >>> ows = OffsetSystem()
            >>> [ows.to_label(h) for h in ows.rectangle(2, 2)]
            ['0101', '0102', '0201', '0202']
        """
        for name, n in (("cols", cols), ("rows", rows)):
            if type(n) is not int or n < 0:
                raise ValueError(f"{name} must be a non-negative int, got {n!r}")
        c0, r0 = self.first_col, self.first_row
        return [self.from_offset(c, r) for c in range(c0, c0 + cols) for r in range(r0, r0 + rows)]

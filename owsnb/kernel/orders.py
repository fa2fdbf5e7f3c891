"""Orders: small frozen values with a text notation that round-trips.

The notation is ``side: verb arg arg key=value key=v1,v2`` (tokens are shell-quoted when they
contain spaces). Positional arguments and named parameters are both kept as text; the rule set's
:class:`OrderType` says what they mean, and :meth:`OrderType.bind` resolves them on what the
ordering side knows: a ``unit`` parameter to its own unit, an ``enemy`` one to an enemy unit it
has detected, a ``hex`` to a hex of the map, an ``int`` to a number — or refuses the order with
the standard codes, citing the order type's rule.

>>> o = Order.parse("blue: strike 0907 salvos=DDG-114:d12,DDG-114:d12")
>>> o.side, o.verb, o.args, o.params["salvos"]
('blue', 'strike', ('0907',), ('DDG-114:d12', 'DDG-114:d12'))
>>> Order.parse(str(o)) == o
True
>>> eval(repr(o)) == o
True
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from owsnb.kernel.data import EMPTY, FrozenDict
from owsnb.kernel.errors import IllegalOrderError, InvalidHexError, OrderSyntaxError, refuse
from owsnb.kernel.hexgrid import Hex
from owsnb.kernel.state import UMPIRE, MapState, Unit

__all__ = [
    "Order",
    "Param",
    "OrderType",
    "OrderSpec",
    "LegalOrders",
    "BOUND_KINDS",
    "seen",
    "own_unit",
    "enemy_unit",
    "order_hex",
    "order_int",
]

_NAME_OK = set("abcdefghijklmnopqrstuvwxyz0123456789_-.")


def _check_name(what: str, s: str) -> str:
    if not s or not set(s.lower()) <= _NAME_OK or s[0] in "-.":
        raise OrderSyntaxError(f"{what} {s!r} must be a word of letters, digits, '-', '_' or '.'")
    return s


def _token(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        raise OrderSyntaxError(f"order values are text, numbers or hexes, not {v!r}")
    return str(v)


@dataclass(frozen=True)
class Order:
    """An order given by a side (or the umpire).

    Attributes:
        side: who gives it (``"blue"``, ``"red"``, ``"umpire"``...).
        verb: what to do (``"move"``, ``"strike"``, ``"done"``...).
        args: positional arguments, as text.
        params: named parameters; a value is text or a tuple of texts.
    """

    side: str
    verb: str
    args: tuple[str, ...] = ()
    params: FrozenDict = EMPTY

    def __init__(
        self,
        side: str,
        verb: str,
        args: Iterable[Any] = (),
        params: Mapping[str, Any] | None = None,
        **kw: Any,
    ):
        object.__setattr__(self, "side", _check_name("side", str(side)))
        object.__setattr__(self, "verb", _check_name("verb", str(verb)))
        if isinstance(args, str):
            args = (args,)
        object.__setattr__(self, "args", tuple(_token(a) for a in args))
        p: dict[str, Any] = {}
        for k, v in {**(params or {}), **kw}.items():
            _check_name("parameter", k)
            if isinstance(v, (list, tuple, set, frozenset)):
                vals = tuple(_token(x) for x in v)
                if not vals:
                    continue
                if any("," in x for x in vals):
                    raise OrderSyntaxError(f"values of list parameter {k!r} may not contain ','")
                p[k] = vals
            else:
                p[k] = _token(v)
        object.__setattr__(self, "params", FrozenDict(p))

    # -- notation ------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, *, side: str | None = None) -> Order:
        """Parse ``"side: verb args key=value"``; *side* fills in a missing ``side:`` prefix.

        Raises:
            OrderSyntaxError: the text is not an order.
        """
        if not isinstance(text, str) or not text.strip():
            raise OrderSyntaxError(
                "an order needs text such as 'blue: move INF-1 0304'", order=text
            )
        head, sep, rest = text.partition(":")
        if sep and head.strip() and " " not in head.strip():
            who, body = head.strip(), rest
        elif side is not None:
            who, body = side, text
        else:
            raise OrderSyntaxError(
                f"{text!r}: say who gives the order, e.g. 'blue: {text.strip()}'", order=text
            )
        try:
            tokens = shlex.split(body)
        except ValueError as exc:
            raise OrderSyntaxError(f"{text!r}: {exc}", order=text) from None
        if not tokens:
            raise OrderSyntaxError(f"{text!r}: no verb after '{who}:'", order=text)
        verb, *rest_tokens = tokens
        args: list[str] = []
        params: dict[str, Any] = {}
        for tok in rest_tokens:
            key, eq, val = tok.partition("=")
            if eq and key and set(key.lower()) <= _NAME_OK:
                params[key] = tuple(x for x in val.split(",") if x) if "," in val else val
            else:
                args.append(tok)
        return cls(who, verb, args, params)

    def __str__(self) -> str:
        parts = [self.verb, *(shlex.quote(a) for a in self.args)]
        for k, v in self.params.items():
            if isinstance(v, tuple):
                v = ",".join(v) + ("," if len(v) == 1 else "")
            parts.append(f"{k}={shlex.quote(v)}" if v else f"{k}=''")
        return f"{self.side}: {' '.join(parts)}"

    def __repr__(self) -> str:
        return f"Order.parse({str(self)!r})"

    def get(self, name: str, default: Any = None) -> Any:
        """A named parameter (``default`` if absent)."""
        return self.params.get(name, default)

    def evolve(self, **params: Any) -> Order:
        """A copy with named parameters set (``None`` removes one)."""
        p = {k: v for k, v in self.params.items() if k not in params}
        p.update({k: v for k, v in params.items() if v is not None})
        return Order(self.side, self.verb, self.args, p)


BOUND_KINDS = ("unit", "enemy", "hex", "int")
"""Parameter kinds :meth:`OrderType.bind` resolves on a state (with ``repeat``: a tuple of them):

* ``"unit"``: the ordering side's unit, alive and (unless ``on_map=False``) on the map -> a
  :class:`~owsnb.kernel.state.Unit` (the umpire's: any unit);
* ``"enemy"``: another side's unit, alive on the map, that the ordering side has detected (named
  by its id or by the alias of a face-down counter) -> a ``Unit``;
* ``"hex"``: a hex of the map, named as the rule set names hexes -> a
  :class:`~owsnb.kernel.hexgrid.Hex`;
* ``"int"``: a whole number -> an ``int``.

Every other kind stays text (``"choice"`` is checked against ``choices``; ``"target"`` is a
target the rule set resolves itself, a unit or something else such as ``port:0304``)."""

Detects = Callable[[Any, Unit, str], bool]
"""``detected(state, unit, side)``: has *side* detected the enemy *unit*? (the rule set's
``unit_detected``)."""

HexParser = Callable[[MapState, str], Hex]
"""``parse_hex(map, text)``: the hex an order names (the rule set's ``parse_hex``)."""


def seen(state: Any, unit: Unit, side: str) -> bool:
    """The kernel's detection: *unit* is another side's and *side* is in its ``seen_by``."""
    return unit.side != side and side in unit.seen_by


def _side(order: Any) -> str:
    """Who gives *order* (no order: the umpire, who may name any unit)."""
    return str(getattr(order, "side", UMPIRE))


def own_unit(state: Any, order: Any, ref: str, rule: str, *, on_map: bool = True) -> Unit:
    """The ordering side's unit *ref*, alive and (with *on_map*) on the map; the umpire's: any
    unit. Otherwise the refusal: ``not-your-unit`` (no such unit of that side: the same answer
    whether or not it exists), ``destroyed``, ``off-map`` — citing *rule*.
    """
    side = _side(order)
    u = state.units.get(ref)
    if u is None or (side != UMPIRE and u.side != side):
        raise refuse(f"{side} has no unit {ref!r}", "not-your-unit", rule, order)
    if not u.alive:
        raise refuse(f"{u.id} is destroyed", "destroyed", rule, order)
    if on_map and u.hex is None:
        where = f" (it is in {u.box})" if u.box else ""
        raise refuse(f"{u.id} is not on the map{where}", "off-map", rule, order)
    return u


def enemy_unit(
    state: Any, order: Any, ref: str, rule: str, *, detected: Detects | None = None
) -> Unit:
    """The unit *ref* (an id, or the alias of a face-down counter) of another side, alive on the
    map, that the ordering side has *detected* (default :func:`seen`); the umpire's: any unit
    alive on the map. Otherwise the refusal ``target-not-detected`` citing *rule*: the same for
    a unit that does not exist, one not detected and one of the side's own, so nothing leaks.
    """
    from owsnb.kernel.view import unalias

    side = _side(order)
    u = state.units.get(unalias(state, side, ref) if side != UMPIRE else ref)
    if u is not None and u.alive and u.hex is not None:
        if side == UMPIRE or (u.side != side and (detected or seen)(state, u, side)):
            return u
    raise refuse(f"{ref!r} is not a detected enemy unit", "target-not-detected", rule, order)


def order_hex(
    state: Any, order: Any, ref: str, rule: str, *, parse_hex: HexParser | None = None
) -> Hex:
    """The hex of the map *ref* names (read by *parse_hex*, default ``MapState.hex``), or the
    refusal ``bad-hex`` citing *rule*."""
    try:
        return parse_hex(state.map, ref) if parse_hex is not None else state.map.hex(ref)
    except InvalidHexError as exc:
        raise refuse(str(exc), "bad-hex", rule, order) from None


def order_int(order: Any, name: str, ref: str, rule: str) -> int:
    """The whole number *ref* (digits, an optional ``-``), or the refusal ``bad-arguments``."""
    text = ref.strip()
    if not (text.removeprefix("-").isascii() and text.removeprefix("-").isdigit()):
        raise refuse(f"{name} must be a whole number, not {ref!r}", "bad-arguments", rule, order)
    return int(text)


@dataclass(frozen=True)
class Param:
    """One parameter of an order type: what a widget asks for and what :meth:`OrderType.bind`
    resolves it to.

    Attributes:
        name: parameter name (positional parameters are matched to ``Order.args`` in order).
        kind: what is picked: the bound kinds ``"unit"``, ``"enemy"``, ``"hex"``, ``"int"``
            (:data:`BOUND_KINDS`), or ``"choice"``, ``"text"``, ``"target"``, ``"side"``,
            ``"card"``, ``"salvo"``... kept as text (a rule set may add kinds).
        doc: one line for the order panel.
        positional: given as a bare argument rather than ``name=value``.
        repeat: accepts several values (comma list).
        optional: may be omitted.
        choices: fixed choices, if any.
        on_map: a ``unit`` must stand on the map (``False``: in a box too, e.g. aboard a ship).
    """

    name: str
    kind: str = "text"
    doc: str = ""
    positional: bool = True
    repeat: bool = False
    optional: bool = False
    choices: tuple[str, ...] = ()
    on_map: bool = True


@dataclass(frozen=True)
class OrderType:
    """An order verb declared by a rule set.

    Attributes:
        verb: the verb.
        params: its :class:`Param` list.
        rule: the paragraph that defines the action (cited in refusals).
        doc: one-line description.
        actors: who may give it: ``"side"`` (the acting side), ``"umpire"`` or ``"any"``.
    """

    verb: str
    params: tuple[Param, ...] = ()
    rule: str = ""
    doc: str = ""
    actors: str = "side"

    def bind(
        self,
        order: Order,
        state: Any = None,
        *,
        detected: Detects | None = None,
        parse_hex: HexParser | None = None,
    ) -> dict[str, Any]:
        """Map an order's positional args and params onto parameter names; given the *state* the
        ordering side knows (its view: never the truth it does not know), resolve the bound kinds
        (:data:`BOUND_KINDS`) to units, hexes and numbers. Without a state the values stay text
        (what an order panel fills in).

        Args:
            detected: the rule set's detection, for ``enemy`` parameters (default :func:`seen`).
            parse_hex: how the rule set's orders name hexes (default ``MapState.hex``).

        Raises:
            IllegalOrderError: missing, unknown or surplus parameters, or a value not among the
                choices (code ``"bad-arguments"``); with a state, a reference that does not
                resolve: ``not-your-unit``, ``destroyed``, ``off-map``, ``target-not-detected``,
                ``bad-hex``, ``bad-arguments`` (not a number) — each citing :attr:`rule`.

        >>> from owsnb.rules.skirmish import example
        >>> game = example(seed=11)
        >>> move = game.ruleset.order_types["move"]
        >>> order = Order.parse("blue: move B-INF-1 0303")
        >>> move.bind(order)
        {'unit': 'B-INF-1', 'to': '0303'}
        >>> args = move.bind(order, game.knowledge("blue"))
        >>> args["unit"].id, game.map.label(args["to"])
        ('B-INF-1', '0303')
        >>> move.bind(Order.parse("blue: move R-INF-1 0303"), game.knowledge("blue"))
        Traceback (most recent call last):
        ...
        owsnb.kernel.errors.IllegalOrderError: [S2] blue has no unit 'R-INF-1'
        """
        bound = self._texts(order)
        if state is None:
            return bound
        for p in self.params:
            if p.kind not in BOUND_KINDS or p.name not in bound:
                continue
            v = bound[p.name]
            if p.repeat:
                bound[p.name] = tuple(
                    self._resolve(p, x, order, state, detected, parse_hex) for x in v
                )
            else:
                bound[p.name] = self._resolve(p, v, order, state, detected, parse_hex)
        return bound

    def _resolve(
        self,
        p: Param,
        text: str,
        order: Order,
        state: Any,
        detected: Detects | None,
        parse_hex: HexParser | None,
    ) -> Any:
        if p.kind == "unit":
            return own_unit(state, order, text, self.rule, on_map=p.on_map)
        if p.kind == "enemy":
            return enemy_unit(state, order, text, self.rule, detected=detected)
        if p.kind == "hex":
            return order_hex(state, order, text, self.rule, parse_hex=parse_hex)
        return order_int(order, p.name, text, self.rule)

    def _texts(self, order: Order) -> dict[str, Any]:
        """The order's values by parameter name, as text (syntax and choices checked)."""
        positional = [p for p in self.params if p.positional]
        bound: dict[str, Any] = {}
        args = list(order.args)
        for p in positional:
            if not args:
                break
            if p.repeat:
                bound[p.name] = tuple(x for a in args for x in a.split(",") if x)
                args = []
            else:
                bound[p.name] = args.pop(0)
        if args:
            raise IllegalOrderError(
                f"'{self.verb}' takes {len(positional)} positional argument(s) "
                f"({', '.join(p.name for p in positional) or 'none'}); got extra {args}",
                code="bad-arguments",
                rule=self.rule,
                order=order,
            )
        names = {p.name: p for p in self.params}
        for k, v in order.params.items():
            if k not in names:
                raise IllegalOrderError(
                    f"'{self.verb}' has no parameter {k!r}; it takes {', '.join(names) or 'none'}",
                    code="bad-arguments",
                    rule=self.rule,
                    order=order,
                )
            if k in bound:
                raise IllegalOrderError(
                    f"parameter {k!r} given twice",
                    code="bad-arguments",
                    rule=self.rule,
                    order=order,
                )
            p = names[k]
            bound[k] = (
                (v if isinstance(v, tuple) else tuple(x for x in v.split(",") if x))
                if p.repeat
                else v
            )
        for p in self.params:
            if p.name not in bound:
                if not p.optional:
                    raise IllegalOrderError(
                        f"'{self.verb}' needs {p.name} ({p.doc or p.kind})",
                        code="bad-arguments",
                        rule=self.rule,
                        order=order,
                    )
            elif p.choices:
                vals = bound[p.name] if p.repeat else (bound[p.name],)
                bad = [v for v in vals if v not in p.choices]
                if bad:
                    raise IllegalOrderError(
                        f"{p.name} must be one of {', '.join(p.choices)}; got {', '.join(bad)}",
                        code="bad-arguments",
                        rule=self.rule,
                        order=order,
                    )
        return bound

    def make(self, side: str, **values: Any) -> Order:
        """Build an order from parameter values (positional ones become args while they can).

        A repeatable parameter takes a sequence of items, or text as the notation writes it
        (items separated by commas): ``alloc="B-SQ-CCK:2"`` is one item, never its characters.
        """
        unknown = set(values) - {p.name for p in self.params}
        if unknown:
            raise IllegalOrderError(
                f"'{self.verb}' has no parameter(s) {sorted(unknown)}",
                code="bad-arguments",
                rule=self.rule,
            )
        args: list[str] = []
        params: dict[str, Any] = {}
        positional_ok = True
        for p in self.params:
            v = values.get(p.name)
            if p.repeat and isinstance(v, str):
                v = tuple(x.strip() for x in v.split(",") if x.strip())
            if v is None or (p.repeat and not v):
                positional_ok = positional_ok and not p.positional
                continue
            if p.positional and positional_ok:
                args.append(",".join(map(str, v)) if p.repeat else str(v))
                if p.repeat:
                    positional_ok = False
            else:
                params[p.name] = tuple(map(str, v)) if p.repeat else str(v)
        return Order(side, self.verb, args, params)


@dataclass(frozen=True)
class OrderSpec:
    """An order legal now, with the candidate values for each of its parameters.

    ``candidates[name]`` lists values that make sense now (units that can act, hexes in reach...);
    a missing name means free input. ``min_count``/``max_count`` bound repeatable parameters.
    ``examples`` may hold fully formed orders (what a bot or a quick button would send).
    """

    side: str
    type: OrderType
    candidates: FrozenDict = EMPTY
    examples: tuple[Order, ...] = ()
    note: str = ""

    @property
    def verb(self) -> str:
        return self.type.verb

    def __repr__(self) -> str:
        cands = ", ".join(f"{k}: {len(v)}" for k, v in self.candidates.items())
        return f"<OrderSpec {self.side}: {self.verb} ({cands})>"

    @classmethod
    def of(
        cls,
        side: str,
        order_type: OrderType,
        choices: Iterable[Mapping[str, str]],
        shown: int | None = None,
    ) -> OrderSpec | None:
        """The spec of *order_type* offered with these *choices*, each a full set of parameter
        values: one example order per choice (the first *shown* of them, all by default), each
        parameter's candidates its values, first use first; ``None`` without choices.

        >>> attack = OrderType("attack", (Param("unit", "unit"), Param("target", "enemy")))
        >>> OrderSpec.of("blue", attack, [{"unit": "B-1", "target": "R-1"},
        ...                               {"unit": "B-1", "target": "R-2"}])
        <OrderSpec blue: attack (unit: 1, target: 2)>
        """
        rows = list(choices)
        if not rows:
            return None
        names = dict.fromkeys(name for row in rows for name in row)
        candidates = {n: tuple(dict.fromkeys(r[n] for r in rows if n in r)) for n in names}
        examples = tuple(order_type.make(side, **r) for r in rows[:shown])
        return cls(side, order_type, FrozenDict(candidates), examples)

    def sample(self, rng: Any) -> Order | None:
        """A random concrete order from the candidates (``rng``: a numpy Generator)."""
        if self.examples and (not self.candidates or rng.random() < 0.5):
            return self.examples[int(rng.integers(len(self.examples)))]
        values: dict[str, Any] = {}
        for p in self.type.params:
            cands = list(self.candidates.get(p.name, p.choices))
            if not cands:
                if p.optional:
                    continue
                return (
                    self.examples[int(rng.integers(len(self.examples)))] if self.examples else None
                )
            if p.repeat:
                k = int(rng.integers(1, len(cands) + 1))
                idx = sorted(rng.choice(len(cands), size=k, replace=False).tolist())
                values[p.name] = [cands[i] for i in idx]
            elif p.optional and rng.random() < 0.3:
                continue
            else:
                values[p.name] = cands[int(rng.integers(len(cands)))]
        return self.type.make(self.side, **values)


@dataclass(frozen=True)
class LegalOrders:
    """What a side may order now: a list of :class:`OrderSpec`, one per verb.

    Supports ``in`` (checks an order against the rule set's validator), ``len``, iteration,
    ``verbs`` and ``sample(rng)`` for random play-outs.
    """

    side: str
    specs: tuple[OrderSpec, ...]
    _check: Callable[[Order], bool] | None = field(default=None, repr=False, compare=False)

    def __iter__(self) -> Iterator[OrderSpec]:
        return iter(self.specs)

    def __len__(self) -> int:
        return len(self.specs)

    def __bool__(self) -> bool:
        return bool(self.specs)

    def __getitem__(self, verb: str) -> OrderSpec:
        for s in self.specs:
            if s.verb == verb:
                return s
        raise KeyError(f"{verb!r} is not legal for {self.side} now; legal: {', '.join(self.verbs)}")

    @property
    def verbs(self) -> list[str]:
        return [s.verb for s in self.specs]

    def __contains__(self, order: object) -> bool:
        if isinstance(order, str):
            order = Order.parse(order, side=self.side)
        if not isinstance(order, Order) or order.verb not in self.verbs:
            return False
        return self._check(order) if self._check else True

    def sample(self, rng: Any, tries: int = 20) -> Order | None:
        """A random order that passes validation (``None`` if none was found in *tries*)."""
        if not self.specs:
            return None
        for _ in range(tries):
            spec = self.specs[int(rng.integers(len(self.specs)))]
            order = spec.sample(rng)
            if order is not None and (self._check is None or self._check(order)):
                return order
        return None

    def __repr__(self) -> str:
        return f"<LegalOrders {self.side}: {', '.join(self.verbs) or 'nothing'}>"

    def _repr_html_(self) -> str:
        from owsnb.display.html import legal_orders_html

        return legal_orders_html(self)


def describe_specs(specs: Sequence[OrderSpec]) -> list[str]:
    """One text line per spec (for text displays)."""
    out = []
    for s in specs:
        params = " ".join((p.name if p.positional else f"{p.name}=…") for p in s.type.params)
        out.append(
            f"{s.side}: {s.verb} {params}".rstrip() + (f"   [{s.type.rule}]" if s.type.rule else "")
        )
    return out

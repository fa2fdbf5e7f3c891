"""Operational Points and the turn-end roll (Basic 3.3-3.4, 3.11; source L24, L61-L65, L81-L83).

OP earned at the start of an impulse = module minimum + d10 + deficit OP granted by the
opponent (L61; example L62: 10 + 5 + 2 = 17). Spending follows the appendix ruling (option
``deficit_op = "extra"``): this impulse's earnings first, then up to 3 *granted* deficit OP
(they cost the pool nothing and are credited to the opponent's next impulse), then banked OP.
``deficit_op = "pool"`` is the digest's first proposal (deficit OP are pool OP that also credit
the opponent). Deficit OP lapse when the turn ends (L64).

>>> op_earned_distribution(10, 2)[17]
Fraction(1, 10)
>>> spend_plan(cost=15, pool=12, earned_left=12, deficit_used=0, mode="extra")
{'from_earned': 12, 'deficit': 3, 'from_bank': 0, 'pool_after': 0}
>>> turn_end_chance(box=5, passed=False)
Fraction(5, 18)
"""

from __future__ import annotations

from fractions import Fraction

from owsnb.kernel.dist import Distribution
from owsnb.kernel.state import StateLike

__all__ = [
    "op_earned_distribution",
    "spend_plan",
    "turn_end_chance",
    "turn_ends",
    "turn_end_box",
    "bank_locked",
    "SpendError",
]


class SpendError(ValueError):
    """Not enough OP."""


def op_earned_distribution(minimum: int, deficit_credit: int) -> Distribution:
    """Exact distribution of OP earned this impulse (L61)."""
    return Distribution.die(10).map(lambda r: minimum + r + deficit_credit, label="OP earned")


def spend_plan(
    *,
    cost: int,
    pool: int,
    earned_left: int,
    deficit_used: int,
    mode: str = "extra",
    deficit_max: int = 3,
    bank_locked: bool = False,
) -> dict[str, int]:
    """How *cost* OP are paid (raises :class:`SpendError` if they cannot be).

    ``pool`` includes this impulse's unspent earnings (``earned_left``).
    """
    from_earned = min(cost, earned_left)
    rest = cost - from_earned
    bank = pool - earned_left
    if mode == "extra":
        deficit = min(rest, deficit_max - deficit_used)
        rest -= deficit
        if rest > (0 if bank_locked else bank):
            raise SpendError(
                f"needs {cost} OP: {earned_left} earned this impulse, "
                f"{deficit_max - deficit_used} deficit OP left, "
                f"{0 if bank_locked else bank} banked OP usable"
            )
        return {
            "from_earned": from_earned,
            "deficit": deficit,
            "from_bank": rest,
            "pool_after": pool - from_earned - rest,
        }
    # "pool": every OP comes from the pool; the first <=3 beyond the earnings credit the opponent
    deficit = min(rest, deficit_max - deficit_used)
    if rest > (0 if bank_locked else bank):
        raise SpendError(
            f"needs {cost} OP; only {earned_left + (0 if bank_locked else bank)} usable"
        )
    return {
        "from_earned": from_earned,
        "deficit": deficit,
        "from_bank": rest,
        "pool_after": pool - cost,
    }


def turn_ends(roll: int, box: int, passed: bool, pass_rule: str = "toward-end") -> bool:
    """Does a 2d6 *roll* end the turn against the Turn Ending Track *box* (L81-L82)?

    ``pass_rule="toward-end"`` (default, digest ruling #2): after a pass the roll counts 1 less.
    ``"literal"``: +1 to the roll, as printed (which makes ending *less* likely, contradicting
    "Passing increases the chances", L63).
    """
    mod = 0 if not passed else (-1 if pass_rule == "toward-end" else 1)
    return roll + mod <= box


def turn_end_chance(box: int, passed: bool, pass_rule: str = "toward-end") -> Fraction:
    """Exact chance that the turn-end roll ends the turn."""
    two = Distribution.die(6) + Distribution.die(6)
    return two.prob(lambda r: turn_ends(r, box, passed, pass_rule))


def turn_end_box(state: StateLike) -> int:
    track = state.tables["turn_end_track"]["boxes"]
    i = min(int(state.public.get("turn_end_index", 0)), len(track) - 1)
    return int(track[i])


def bank_locked(state: StateLike, side: str) -> bool:
    """OMG-N L851: the side may not draw banked OP in the first turns (rulings table)."""
    locked = state.tables.get("rulings", {}).get("pool_locked_turns", {}) or {}
    n = locked.get(side)
    return n is not None and bool(n) and state.clock.turn <= int(n)

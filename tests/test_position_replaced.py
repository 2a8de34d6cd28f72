"""``Position.replaced`` is ``dataclasses.replace`` made cheap for the turn's enumeration (issue 15): it must give
the very same position, field by field, whatever changes and in whatever order the new values come."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.hexes import Direction, Hex
from solver.position import Position, Unit
from solver.tiles import tile

from test_roundtrip import positions

FIELD_NAMES = [f.name for f in fields(Position)]


def _shuffled(value: object, order: list[int]) -> object:
    """A tuple field's value in another order (what a caller may pass): the position must sort it again."""
    if isinstance(value, tuple) and len(value) > 1:
        keys = order[: len(value)] + list(range(len(order), len(value)))
        return tuple(item for _, item in sorted(zip(keys, value), key=lambda pair: pair[0]))
    return value


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions(), positions(), st.sets(st.sampled_from(FIELD_NAMES)), st.permutations(list(range(12))))
def test_replaced_equals_replace_field_by_field(position: Position, other: Position, names: set[str],
                                                order: list[int]) -> None:
    changes = {name: _shuffled(getattr(other, name), order) for name in sorted(names)}
    fast, slow = position.replaced(**changes), replace(position, **changes)
    for name in FIELD_NAMES:  # the compared fields and the uncompared ones (locations, seats) alike
        assert getattr(fast, name) == getattr(slow, name), name
    assert fast == slow and hash(fast) == hash(slow)


def test_replaced_forgets_what_was_worked_out_from_the_old_units() -> None:
    """The lookup by hex and the hash belong to the old units: a moved unit is found where it went."""
    guard = tile("moloch:guard")
    position = Position((Unit(Hex.parse("c3"), guard, Direction.N),))
    assert position.unit_at(Hex.parse("c3")) is not None and hash(position)
    moved = position.replaced(units=(Unit(Hex.parse("c4"), guard, Direction.N),))
    assert moved.unit_at(Hex.parse("c3")) is None and moved.unit_at(Hex.parse("c4")) is not None
    assert hash(moved) == hash(replace(position, units=moved.units))


def test_replaced_refuses_a_name_that_is_not_a_field() -> None:
    with pytest.raises(TypeError, match="no field 'unit'"):
        Position().replaced(unit=())

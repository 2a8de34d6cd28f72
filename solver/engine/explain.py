"""What a judge reads in a traced battle besides the hits: where every bonus comes from, who is netted by whom,
which modules a Scoper holds, who controls a taken-over unit, and how every unit's initiative was made.

Computed only when a battle is traced: the untraced battle (the solver's hot path) reads the summed
:class:`~solver.engine.effects.Bonus` only and never comes here. Everything is derived again from the units, nets and
sides the battle read (:func:`solver.engine.effects.read`), with the same links (:func:`solver.engine.effects.links`), so it
names the very links that made the bonuses; a property test checks that the sources add up to the bonuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import effects
from .points import Points
from .effects import Bonus, Sides, Units
from ..position import Unit
from ..hexes import Hex
from ..rules import RuleSet
from ..teams import plays_for

@dataclass(frozen=True, slots=True)
class Source:
    """One module's (or HQ's) contribution to one unit: ``field`` of :class:`Bonus`, the value, and who gives it."""

    field: str
    value: int
    giver: str  # "moloch:officer on b2", with "(held by the Scoper on d2)" when a Scoper took it

    def __str__(self) -> str:
        if self.field == "extra_actions":
            return f"{self.giver}: one extra action"
        return f"{self.giver} {'+' if self.value >= 0 else '−'}{abs(self.value)}"


def sources(units: Units, nets: frozenset[Hex], rules: RuleSet, sides: Sides = effects.NO_TAKEOVERS,
            points: Points | None = None, ground: Sequence[Unit] = ()) -> dict[Hex, list[Source]]:
    """Every unit's bonuses one by one, with the module or HQ giving each (3E MODULES; RULINGS 5-8, 13), read
    from the same links as :func:`solver.engine.effects.bonuses` (the families' links too)."""
    found: dict[Hex, list[Source]] = {}
    for module, target, holder in effects.links(units, nets, sides, points, ground):
        if target.hex == module.hex:
            continue  # an HQ's ability never affects the HQ itself (3E THE HQs)
        effect = effects.link_effect(module)
        # the module-effect table the battle's bonuses use (effects.EFFECT_FIELDS); the Medics and Quartermasters
        # listed there are told as their own events, not as bonuses
        fields = [name for name in effects.effect_fields(effect.type, rules) if name in effects.NUMBER_FIELDS]
        giver = f"{module.tile.key} on {module.hex}"
        if holder is not module:
            giver += f" (held by the {holder.tile.title} on {holder.hex})"
        for name in fields:
            value = 1 if name == "extra_actions" else (effect.value or 0)
            found.setdefault(target.hex, []).append(Source(name, value, giver))
    for listed in found.values():
        listed.sort(key=lambda s: s.giver)  # the same words whatever order the units are written in
    return found


def added(found: dict[Hex, list[Source]], hex_: Hex, *fields: str) -> tuple[str, ...]:
    """The contributions to ``fields`` of the unit on ``hex_``, as trace words (``moloch:officer on b2 +1``)."""
    return tuple(str(s) for s in found.get(hex_, ()) if s.field in fields and s.value)


def total(found: dict[Hex, list[Source]], hex_: Hex, name: str) -> int:
    return sum(s.value for s in found.get(hex_, ()) if s.field == name)


def agrees(found: dict[Hex, list[Source]], bonuses: dict[Hex, Bonus]) -> bool:
    """Whether the sources add up to the bonuses the battle uses, for every unit (the property tests' check)."""
    for hex_ in set(found) | set(bonuses):
        bonus = bonuses.get(hex_) or Bonus()
        for name in effects.NUMBER_FIELDS:
            if total(found, hex_, name) != getattr(bonus, name):
                return False
    return True


# --- the standing facts of a reading, stated when they take effect --------------------------------------------


def facts(units: Units, reading: effects.Reading, found: dict[Hex, list[Source]]) -> dict[tuple, tuple[str, str, str]]:
    """What holds while the units stand as they do, keyed by what it is about so that a change can be told: ``key
    -> (kind, text, rule)``. Nets (who nets whom), a Scoper's captures, takeovers, and initiatives moved by
    modules and HQs (Scout, Saboteur, Boss, HQs; extra actions from a Mother Module or the Outpost HQ)."""
    told: dict[tuple, tuple[str, str, str]] = {}
    nets, sides = reading.nets, reading.sides

    def name(hex_: Hex) -> str:
        return f"{units[hex_].tile.key} on {hex_}"

    for hex_, army in sorted(sides.items()):
        # In a team match every unit is listed under its team's key (solver/teams.py): only a unit that fights
        # for a side its own army is not on was taken over.
        if hex_ in units and not plays_for(army, units[hex_].army):
            told[("control", hex_, army)] = ("control", f"{name(hex_)} fights for {army} (control takeover)",
                                              "PL VEGAS, Sztab, Agitator; RULINGS 17")
    aims = effects.net_targets(units, sides)
    netters: dict[Hex, list[Hex]] = {}
    for source, targets in aims.items():
        for target in targets:
            netters.setdefault(target, []).append(source)
    for target, by in sorted(netters.items()):
        if target in nets:
            free = sorted(h for h in by if h not in nets)
            told[("net", target)] = ("net", f"{name(target)} is netted by " + ", ".join(name(h) for h in free),
                                     "3E USING NETS; RULINGS 2")
        else:
            told[("free", target)] = ("net", f"{name(target)} is free: every net aimed at it comes from a netted "
                                      "Net Fighter or from a ring of nets (" + ", ".join(name(h) for h in sorted(by))
                                      + ")", "3E USING NETS; RULINGS 2")
    for module, holder in sorted(effects.captured_modules(units, nets, sides).items()):
        told[("capture", module, holder.hex)] = (
            "capture", f"the {holder.tile.title} on {holder.hex} takes over {name(module)}: it works for "
            f"{effects.side(holder, sides)}", "RULINGS 8; ES/PL Scoper")
    for hex_ in sorted(found):
        if hex_ not in units or not units[hex_].tile.initiative:
            continue
        shift = added(found, hex_, "initiative")
        extra = added(found, hex_, "extra_actions")
        if not shift and not extra:
            continue
        printed = units[hex_].tile.initiative
        moved = total(found, hex_, "initiative")
        now = [max(0, v + moved) for v in printed]
        parts = []
        if shift:
            parts.append(f"initiative {'/'.join(map(str, printed))} → {'/'.join(map(str, now))} ("
                         + ", ".join(shift) + ")")
        if extra:
            lowest = min(now)
            slots = [lowest - k for k in range(1, len(extra) + 1)]
            kept = [str(s) for s in slots if s >= 0]
            parts.append(("extra action at " + ", ".join(kept) if kept else "no extra action (it would be below 0)")
                         + " (" + ", ".join(extra) + ")")
        told[("initiative", hex_)] = (
            "initiative", f"{name(hex_)}: " + "; ".join(parts), "3E MORE ON INITIATIVE; RULINGS 5-7")
    return told


def changes(before: dict[tuple, tuple[str, str, str]], now: dict[tuple, tuple[str, str, str]],
            units: Units) -> list[tuple[str, str, str]]:
    """The facts that end, while their unit is still there, then those that take effect (new or different): causes
    before effects (a Net Fighter no longer netted, then the HQ it nets now)."""
    told = [(kind, f"no longer so: {text}", rule) for key, (kind, text, rule) in before.items()
            if key not in now and key[1] in units]
    told += [fact for key, fact in now.items() if before.get(key) != fact]
    return told

"""The idea of a card in words: why its key wins and why a try fails, found by counterfactuals over battle traces.

A judge's trace (:mod:`solver.engine.battle`, :mod:`solver.engine.explain`) says everything that happened: every hit with the
bonuses that made it and their sources, who nets whom, initiatives moved by modules, takeovers, Medics, deaths,
and the families' own events (redirection, venom, terrain, ...). What a player wants is the one difference that
matters. So the key's battle is compared with the battle of a counterfactual: the key with one of its actions left
out (for a try, the try against the key). The comparison is made on the trace alone, never per army:

1. **The result.** Which units deal more (or less) damage to an enemy HQ, which enemies hit the player's HQ
   less (or more).
2. **The rule that carries it**, for each such unit, read from the two traces: a net that holds in one and not in
   the other (and what lifted it: a death in some phase, a unit gone before the battle, a net on the netter), a
   bonus whose source is present in one (a module's link, an HQ), an extra action or an initiative moved, a unit
   struck down before its phase comes, a Medic's absorption, a takeover or capture, or an event of an ability
   family (redirection, venom, terrain ...) that one battle has and the other has not.
3. **The agent**: what the action itself does to start it (the placed unit's blow or link, the instant's
   removal, the moved unit).

The words name tiles and hexes: "The Ganger on b3 kills the Net Fighter on b2 in phase 3, freeing the Thug on
c2: the Thug now hits the Borgo HQ for 2."
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Sequence

from ..engine import battle
from ..notation.cards import Alive, And, Destroy, DrawOrWin, Goal, HpCompare, Not, Or, Puzzle, Survive, Win
from ..errors import NhexError
from ..position import Action, Move, Place, Position, PutPrize, Unit, Use
from ..tiles import KEY_PATTERN, Kind, army, tile
from ..hexes import Hex
from .evaluation import Ending, goal_hexes, goal_holds, side_standing

# --- names ----------------------------------------------------------------------------------------------------------

_KEY = KEY_PATTERN
_HEX = r"[a-z]\d+"
_UNIT = re.compile(rf"\b({_KEY}) on ({_HEX})\b")
_BARE_KEY = re.compile(rf"\b({_KEY})\b")


def tile_title(key: str) -> str:
    """A tile's name for a sentence, without a leading article ("The Brain" → "Brain": "the Brain")."""
    try:
        found = tile(key)
    except (NhexError, KeyError, ValueError):
        return key
    if found.kind is Kind.HQ:
        return f"{army(found.army).title} HQ"
    return found.title.removeprefix("The ").removeprefix("the ")


def army_title(name: str) -> str:
    try:
        return army(name).title
    except (NhexError, KeyError, ValueError):
        return name


def unit_words(key: str, hex_: str | None = None, *, article: str = "the") -> str:
    """``the Net Fighter on b2``; an HQ is named by its army (``the Borgo HQ``)."""
    title = tile_title(key)
    if title.endswith(" HQ") or hex_ is None:
        return f"{article} {title}".strip()
    return f"{article} {title} on {hex_}".strip()


def plain(text: str) -> str:
    """Trace words for players: ``borgo:net-fighter on b2`` becomes ``the Net Fighter on b2``, ``moloch:hq``
    ``the Moloch HQ``."""
    text = _UNIT.sub(lambda m: unit_words(m.group(1), m.group(2)), text)
    text = _BARE_KEY.sub(lambda m: unit_words(m.group(1)), text)
    return re.sub(r"\b(the|a) (the|The) ", r"\1 ", text)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- what a traced battle did ---------------------------------------------------------------------------------------

_HIT = re.compile(rf"^(?:(?P<src>{_KEY}) on (?P<src_hex>{_HEX})|(?P<other>.+?)) hits (?P<tgt>{_KEY}) on "
                  rf"(?P<tgt_hex>{_HEX}) for (?P<n>\d+) \((?P<kind>[^)]+)\)$")
_MEDIC = re.compile(r"^Medic on (?P<medic>\S+) absorbs (?P<src>.+?) → (?P<tgt>.+?); the Medic on (?P<spent>\S+) "
                    r"is discarded")
_PHASE = re.compile(r"^Initiative phase (\d+): (.*)$")
_DIES = re.compile(rf"^({_KEY}) on ({_HEX}) dies")
_IDLE = re.compile(rf"^({_KEY}) on ({_HEX}) is netted and does nothing")
_NETTED_BY = re.compile(rf"^({_KEY}) on ({_HEX}) is netted by (.*)$")
_BONUS = re.compile(rf"({_KEY}) on ({_HEX})(?: \(held by the [^)]*\))? ([+−])(\d+)")
_EXTRA = re.compile(rf"^({_KEY}) on ({_HEX}): .*extra action at (\d+) \((.*)\)")
_INITIATIVE = re.compile(rf"^({_KEY}) on ({_HEX}): initiative (\S+) → (\S+) \((.*?)\)")
_CONTROL = re.compile(rf"^({_KEY}) on ({_HEX}) fights for (\S+)")
_CAPTURE = re.compile(rf"^the (.+?) on ({_HEX}) takes over ({_KEY}) on ({_HEX})")

#: Event kinds that are the battle's own bookkeeping, not an ability's doing.
_PLAIN_KINDS = {"phase", "melee", "ranged", "hq", "destroyed", "death", "wound", "netted", "net", "initiative",
                "control", "capture", "medic", "armor", "hq-vs-hq"}


@dataclass(frozen=True)
class Blow:
    """One hit of the trace: who (``source`` hex, or the kind for a hit without a unit), on whom, for how much."""

    phase: int | None
    source: str | None  # hex label of the attacking unit
    source_key: str | None
    target: str
    target_key: str
    wounds: int
    kind: str
    how: str
    absorbed: bool = False


@dataclass
class Digest:
    """What one traced battle did, in the terms the sentences use."""

    position: Position  # the board the battle started from
    player: str
    hq_lost: dict[str, int]  # army -> health lost in the battle
    blows: list[Blow] = field(default_factory=list)
    deaths: dict[str, int | None] = field(default_factory=dict)  # hex -> phase of death
    killers: dict[str, list[str]] = field(default_factory=dict)  # hex -> hexes whose blows landed in that phase
    acted: dict[str, list[int]] = field(default_factory=dict)  # hex -> phases it acted in
    idle: dict[str, list[int]] = field(default_factory=dict)  # hex -> phases it was netted and did nothing
    netters: dict[str, list[str]] = field(default_factory=dict)  # hex -> hexes netting it (first told)
    extra: dict[str, str] = field(default_factory=dict)  # hex -> giver of an extra action ("key on hex")
    initiative: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # hex -> (printed, now, givers)
    control: dict[str, str] = field(default_factory=dict)  # hex -> army it fights for
    captures: dict[str, str] = field(default_factory=dict)  # module hex -> holder hex
    medics: list[tuple[int | None, str, str, str]] = field(default_factory=list)  # phase, medic, attack src, target
    specials: list[tuple[int | None, str, str]] = field(default_factory=list)  # phase, kind, text
    start: Position | None = None  # the card's board before the player's turn

    def key_at(self, hex_: str) -> str | None:
        from ..hexes import Hex

        try:
            unit = self.position.unit_at(Hex.parse(hex_))
        except (NhexError, ValueError):
            return None
        return unit.tile.key if unit is not None else None

    def name(self, hex_: str) -> str:
        key = self.key_at(hex_)
        return unit_words(key, hex_) if key else f"the unit on {hex_}"

    def side(self, hex_: str) -> str | None:
        """Who the unit fights for in this battle (a takeover moves it)."""
        if hex_ in self.control:
            return self.control[hex_]
        key = self.key_at(hex_)
        return key.split(":")[0] if key else None

    def hq_damage(self, source: str, *, to_player: bool) -> list[Blow]:
        """The blows of ``source`` (a hex, or a kind) that reach an HQ and are not absorbed: on the player's HQ
        when ``to_player``, else on another army's."""
        found = []
        for blow in self.blows:
            if blow.absorbed or tile_kind(blow.target_key) is not Kind.HQ:
                continue
            if (blow.source or blow.kind) != source:
                continue
            mine = blow.target_key.split(":")[0] == self.player
            if mine == to_player:
                found.append(blow)
        return found

    def sources_on_hqs(self, *, to_player: bool) -> set[str]:
        return {b.source or b.kind for b in self.blows if not b.absorbed and tile_kind(b.target_key) is Kind.HQ
                and (b.target_key.split(":")[0] == self.player) == to_player}


def tile_kind(key: str) -> Kind | None:
    try:
        return tile(key).kind
    except (NhexError, KeyError, ValueError):
        return None


def digest(position: Position, outcome: battle.Outcome, player: str, start: Position | None = None) -> Digest:
    """Read a traced battle's events into a :class:`Digest` (``start``: the card's board, before the turn)."""
    start_hp = {u.army: u.health for u in position.units if u.is_hq}
    lost = {a: hp - outcome.hq.get(a, 0) for a, hp in start_hp.items()}
    found = Digest(position, player, lost, start=start)
    pending: list[int] = []  # indexes of the blows of the current phase (a Medic absorbs one of them)
    current: int | None = None
    for event in outcome.trace:
        text = event.text
        if event.phase != current:
            pending, current = [], event.phase
        if event.kind == "phase":
            match = _PHASE.match(text)
            if match:
                for actor in _UNIT.finditer(match.group(2)):
                    found.acted.setdefault(actor.group(2), []).append(int(match.group(1)))
            continue
        hit = _HIT.match(text)
        if hit:
            pending.append(len(found.blows))
            found.blows.append(Blow(event.phase, hit.group("src_hex"), hit.group("src"), hit.group("tgt_hex"),
                                    hit.group("tgt"), int(hit.group("n")), hit.group("kind"), event.how))
            continue
        if event.kind == "medic":
            match = _MEDIC.match(text)
            if match:
                found.medics.append((event.phase, match.group("medic"), match.group("src"), match.group("tgt")))
                for index in pending:
                    blow = found.blows[index]
                    src = f"{blow.source_key} on {blow.source}" if blow.source else f"the {blow.kind}"
                    if src in match.group("src") and match.group("tgt") == f"{blow.target_key} on {blow.target}":
                        found.blows[index] = replace(blow, absorbed=True)
            continue
        match = _DIES.match(text)
        if match and event.kind == "death":
            hex_ = match.group(2)
            found.deaths.setdefault(hex_, event.phase)
            found.killers[hex_] = [b.source or b.kind for b in found.blows
                                   if b.phase == event.phase and b.target == hex_ and not b.absorbed]
            continue
        match = _IDLE.match(text)
        if match:
            found.idle.setdefault(match.group(2), []).append(event.phase if event.phase is not None else -1)
            continue
        if text.startswith("no longer so"):
            continue
        match = _NETTED_BY.match(text)
        if match:
            found.netters.setdefault(match.group(2), [m.group(2) for m in _UNIT.finditer(match.group(3))])
            continue
        match = _EXTRA.match(text)
        if match:
            giver = _UNIT.search(match.group(4))
            found.extra.setdefault(match.group(2), f"{giver.group(1)} on {giver.group(2)}" if giver else "")
        match = _INITIATIVE.match(text)
        if match:
            found.initiative.setdefault(match.group(2), (match.group(3), match.group(4), match.group(5)))
        if event.kind in ("initiative",):
            continue
        match = _CONTROL.match(text)
        if match:
            found.control.setdefault(match.group(2), match.group(3))
            continue
        match = _CAPTURE.match(text)
        if match:
            found.captures.setdefault(match.group(4), match.group(2))
            continue
        if event.kind not in _PLAIN_KINDS:
            found.specials.append((event.phase, event.kind, text))
    return found


# --- comparing two battles ------------------------------------------------------------------------------------------


def _hq_name(blows: Sequence[Blow]) -> str:
    keys = sorted({b.target_key for b in blows})
    return " and ".join(unit_words(k) for k in keys) if keys else "the enemy HQ"


#: Counts said as words (issue 26: "three hits of 2 instead of two").
_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def count_words(n: int) -> str:
    return _COUNTS.get(n, str(n))


def _amounts(blows: Sequence[Blow]) -> str:
    """``for 2`` (one hit) / ``with three hits of 2`` / ``with hits of 2 and 1``."""
    values = [b.wounds for b in blows]
    if not values:
        return "for nothing"
    if len(values) == 1:
        return f"for {values[0]}"
    if len(set(values)) == 1:
        return f"with {count_words(len(values))} hits of {values[0]}"
    return "with hits of " + ", ".join(map(str, values[:-1])) + f" and {values[-1]}"


def _instead(better: Sequence[Blow], worse: Sequence[Blow]) -> str:
    """``with three hits of 2 instead of two`` / ``for 2 instead of 1``: the better hits against the worse, the
    counts said plainly when the hits are alike."""
    now = _amounts(better)
    if not worse:
        return now
    values_b, values_w = {b.wounds for b in better}, {b.wounds for b in worse}
    if len(values_b) == 1 and values_b == values_w and len(better) != len(worse):
        return f"{now} instead of {count_words(len(worse))}"
    return f"{now} instead of {_amounts(worse).removeprefix('for ').removeprefix('with ')}"


def _when(blows: Sequence[Blow]) -> str:
    phases = sorted({b.phase for b in blows if b.phase is not None}, reverse=True)
    if not phases:
        return ""
    if len(phases) == 1:
        return f" in phase {phases[0]}"
    return " in phases " + ", ".join(map(str, phases[:-1])) + f" and {phases[-1]}"


def _phase_words(phase: int | None) -> str:
    return "before the battle" if phase is None else f"in phase {phase}"


def _killer_words(d: Digest, hex_: str) -> str:
    killers = [k for k in d.killers.get(hex_, ()) if k]
    names = []
    for k in dict.fromkeys(killers):
        names.append(d.name(k) if re.fullmatch(_HEX, k) else f"the {k}")
    return " and ".join(names)


def _bonus_givers(blows: Sequence[Blow]) -> dict[str, int]:
    """``key on hex`` -> the bonus it added to these blows (largest seen)."""
    found: dict[str, int] = {}
    for blow in blows:
        for match in _BONUS.finditer(blow.how):
            value = int(match.group(4)) * (1 if match.group(3) == "+" else -1)
            name = f"{match.group(1)} on {match.group(2)}"
            found[name] = max(found.get(name, value), value)
    return found


@dataclass(frozen=True)
class Finding:
    """One difference between a better and a worse battle, about one unit (``about``), with the rule behind it.

    ``cause`` says what happens in the better battle ("the Ganger on b3 kills the Net Fighter on b2 in phase 3,
    freeing the Thug on c2"); ``lack`` what happens instead in the worse one ("the Thug on c2 stays netted by the
    Net Fighter on b2"); ``result`` and ``loss`` the difference at the HQs; ``agents`` the hexes the cause
    involves (to find the action that starts it); ``rule`` a short name of the rule."""

    rule: str
    about: str
    cause: str
    lack: str
    result: str
    loss: str
    agents: tuple[str, ...] = ()


def _why_stronger(better: Digest, worse: Digest, hex_: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """Why the player's unit on ``hex_`` deals more to the enemy HQs in ``better``: ``(rule, cause, lack,
    agents)``."""
    name = better.name(hex_)
    key_b, key_w = better.key_at(hex_), worse.key_at(hex_)
    if key_w != key_b:
        if key_w is None and _stood(better, hex_):
            return ("survival", f"{name} is still standing when the battle starts",
                    f"{name} is gone before the battle", (hex_,))
        blows = better.hq_damage(hex_, to_player=False)
        helped = " and ".join(f"the +{v} of {plain(g)}" for g, v in _bonus_givers(blows).items())
        title = tile_title(key_b or "")
        other = (f"{worse.name(hex_)} stands in place of the key's {title}" if key_w
                 else f"the key's {title} is missing")
        told_w = {text for _, _, text in worse.specials}
        special = next((plain(text) for _, _, text in better.specials if text not in told_w and hex_ in text
                        and _hq_name(blows) not in plain(text)), "")
        return ("a unit placed", (f"{capital(special)}: it" if special else name)
                + f" hits {_hq_name(blows)} {_amounts(blows)}{_when(blows)}"
                + (f", with {helped}" if helped else ""), other, (hex_,))
    if better.control.get(hex_) and better.control.get(hex_) != worse.control.get(hex_):
        return ("a takeover", f"{name} fights for {army_title(better.control[hex_])}",
                f"{name} still fights for its own side", (hex_,))
    facing_b, facing_w = _facing(better, hex_), _facing(worse, hex_)
    if facing_b is not None and facing_w is not None and facing_b != facing_w:
        return ("a facing", f"{name} turns to face {facing_b}", f"{name} still faces {facing_w}", (hex_,))
    idle_w, idle_b = worse.idle.get(hex_, []), better.idle.get(hex_, [])
    if len(idle_w) > len(idle_b):
        netters = worse.netters.get(hex_, [])
        for netter in netters:
            if netter not in better.netters.get(hex_, []) or netter in better.deaths:
                cause, agents = _lifted(better, worse, netter)
                nets = worse.name(netter)
                late = ""
                died = worse.deaths.get(netter)
                if died is not None:  # a net holds until the end of the phase its Net Fighter dies in
                    late = f", which dies only in phase {died}: too late"
                return ("a net lifted", f"{cause}, freeing {name}", f"{name} stays netted by {nets}{late}",
                        agents + (netter,))
        return ("a net lifted", f"{name} is free", f"{name} is netted", (hex_,))
    if hex_ in better.extra and hex_ not in worse.extra:
        giver = better.extra[hex_]
        return ("an extra action", f"{plain(giver)} gives {name} an extra action",
                f"{name} has no extra action", _hexes(giver))
    init_b, init_w = better.initiative.get(hex_), worse.initiative.get(hex_)
    if init_b and init_b != init_w and len(better.acted.get(hex_, [])) >= len(worse.acted.get(hex_, [])):
        printed, now, givers = init_b
        phases_b, phases_w = better.acted.get(hex_, []), worse.acted.get(hex_, [])
        if phases_b != phases_w:
            verb = "raises" if _first(now) > _first(printed) else "lowers"
            return ("initiative", f"{plain(_givers(givers))} {verb} the initiative of {name} to {now}",
                    f"{name} keeps initiative {init_w[1] if init_w else printed}", _hexes(givers))
    died_w, died_b = worse.deaths.get(hex_), better.deaths.get(hex_)
    if hex_ in worse.deaths and (hex_ not in better.deaths or (died_b or 0) < (died_w or 0)) \
            and len(better.acted.get(hex_, [])) > len(worse.acted.get(hex_, [])):
        killers = _killer_words(worse, hex_)
        lack = f"{killers or 'the enemy'} kills {name} {_phase_words(died_w)}, before it acts"
        saved = [b for b in better.blows if b.target == hex_ and b.absorbed]
        if saved:
            medic = next((m for m in better.medics if m[3].endswith(f"on {hex_}")), None)
            where = better.name(medic[1]) if medic else "a Medic"
            by = better.name(saved[0].source) if saved[0].source else f"the {saved[0].kind}"
            return ("a Medic spent", f"{where} absorbs the attack of {by} on {name}, which lives to act", lack,
                    (medic[1],) if medic else ())
        for killer in worse.killers.get(hex_, ()):
            if killer in better.deaths and (better.deaths[killer] or 0) >= (died_w or 0):
                return ("first strike", f"{_killer_words(better, killer) or 'a blow'} kills {worse.name(killer)} "
                        f"{_phase_words(better.deaths[killer])}, before it strikes {name}", lack,
                        tuple(better.killers.get(killer, ())) + (killer,))
            if len(better.idle.get(killer, [])) > len(worse.idle.get(killer, [])):
                by = " and ".join(better.name(n) for n in better.netters.get(killer, [])) or "a net"
                return ("a net cast", f"{by} nets {worse.name(killer)}, which cannot strike {name}", lack,
                        tuple(better.netters.get(killer, ())) + (killer,))
            init_k = better.initiative.get(killer)
            if init_k and init_k != worse.initiative.get(killer):
                printed, now, givers = init_k
                verb = "raises" if _first(now) > _first(printed) else "lowers"
                return ("initiative", f"{plain(_givers(givers))} {verb} the initiative of {worse.name(killer)} to "
                        f"{now}, so {name} acts first", lack, _hexes(givers) + (killer,))
            if better.key_at(killer) != worse.key_at(killer):
                return ("a unit removed", f"{worse.name(killer)} is gone before the battle, so {name} lives to act",
                        lack, (killer,))
        return ("survival", f"{name} lives to act", lack, tuple(worse.killers.get(hex_, ())))
    givers_b = _bonus_givers(better.hq_damage(hex_, to_player=False))
    givers_w = _bonus_givers(worse.hq_damage(hex_, to_player=False) or
                             [b for b in worse.blows if b.source == hex_])
    for giver, value in givers_b.items():
        if givers_w.get(giver, 0) < value:
            giver_hex = _hexes(giver)
            freed = ""
            if giver_hex and giver_hex[0] in worse.netters and giver_hex[0] not in better.netters:
                cause, agents = _lifted(better, worse, worse.netters[giver_hex[0]][0])
                return ("a bonus freed", f"{cause}, freeing {plain(giver)}",
                        f"{plain(giver)} is netted by {worse.name(worse.netters[giver_hex[0]][0])}",
                        agents + giver_hex)
            if giver_hex and giver_hex[0] in better.captures:
                holder = better.name(better.captures[giver_hex[0]])
                return ("a capture", f"{holder} takes over {plain(giver)}, which gives {name} +{value}",
                        f"{plain(giver)} helps its own side", (better.captures[giver_hex[0]],) + giver_hex)
            return ("a bonus", f"{plain(giver)} gives {name} +{value}{freed}",
                    f"{name} lacks the +{value} of {plain(giver)}", giver_hex)
    absorbed_w = [b for b in worse.blows if b.source == hex_ and b.absorbed and tile_kind(b.target_key) is Kind.HQ]
    if absorbed_w:
        medic = next((m for m in worse.medics if m[2].endswith(f"on {hex_}")), None)
        return ("a Medic spent", f"{name} meets no Medic", f"{worse.name(medic[1]) if medic else 'a Medic'} absorbs "
                f"its attack", ())
    return _special(better, worse, hex_)


def _why_weaker(better: Digest, worse: Digest, hex_: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """Why the enemy unit on ``hex_`` deals less to the player's HQ in ``better``."""
    name = worse.name(hex_)
    if better.key_at(hex_) != worse.key_at(hex_):
        return ("a unit removed", f"{name} is gone before the battle", f"nothing removes {name}", (hex_,))
    if better.control.get(hex_) and better.control.get(hex_) != worse.control.get(hex_):
        return ("a takeover", f"{name} fights for {army_title(better.control[hex_])}",
                f"{name} fights for its own side", (hex_,))
    idle_b, idle_w = better.idle.get(hex_, []), worse.idle.get(hex_, [])
    if len(idle_b) > len(idle_w):
        netters = better.netters.get(hex_, [])
        by = " and ".join(better.name(n) for n in netters) or "a net"
        return ("a net cast", f"{by} nets {name}", f"{name} is not netted", tuple(netters))
    acted_b, acted_w = better.acted.get(hex_, []), worse.acted.get(hex_, [])
    init_b, init_w = better.initiative.get(hex_), worse.initiative.get(hex_)
    if init_b and init_b != init_w and acted_b != acted_w:
        printed, now, givers = init_b
        verb = "raises" if _first(now) > _first(printed) else "lowers"
        return ("initiative", f"{plain(_givers(givers))} {verb} the initiative of {name} to {now}",
                f"{name} keeps initiative {init_w[1] if init_w else printed}", _hexes(givers))
    if hex_ in better.deaths and len(acted_b) < len(acted_w):
        killers = _killer_words(better, hex_)
        first = ""
        phase = better.deaths[hex_]
        if acted_w and phase is not None and phase >= max(acted_w):
            first = ", before it can act" if not acted_b else ", before its last action"
        return ("first strike", f"{killers or 'the player'} kills {name} {_phase_words(phase)}{first}",
                f"{name} lives to act in phase {max(acted_w)}" if acted_w else f"{name} lives",
                tuple(k for k in better.killers.get(hex_, ()) if k))
    absorbed_b = [b for b in better.blows if b.source == hex_ and b.absorbed]
    if absorbed_b:
        medic = next((m for m in better.medics if m[2].endswith(f"on {hex_}")), None)
        where = better.name(medic[1]) if medic else "a Medic"
        target = absorbed_b[0]
        return ("a Medic", f"{where} takes the attack of {name} on {unit_words(target.target_key, target.target)}",
                f"no Medic saves {unit_words(target.target_key, target.target)}",
                (medic[1],) if medic else ())
    givers_w = _bonus_givers(worse.hq_damage(hex_, to_player=True))
    givers_b = _bonus_givers([b for b in better.blows if b.source == hex_])
    for giver, value in givers_w.items():
        if givers_b.get(giver, 0) < value:
            return ("a bonus denied", f"{name} loses the +{value} of {plain(giver)}",
                    f"{name} keeps the +{value} of {plain(giver)}", _hexes(giver))
    return _special(better, worse, hex_)


#: What the worse battle lacks when an ability family's event makes the difference (by event kind, not by army).
_NO_SPECIAL = {"redirect": "nothing turns its shot", "venom": "no venom", "terrain": "no terrain helps it",
               "explosion": "nothing explodes", "trap": "no trap springs", "shotgun": "no shotgun blast",
               "rocket": "no rocket", "sharpshooter": "no shot over the others' heads"}


def _special(better: Digest, worse: Digest, hex_: str) -> tuple[str, str, str, tuple[str, ...]] | None:
    """An ability family's event about the unit that one battle has and the other has not (redirection, venom,
    terrain, ...)."""
    told_w = {text for _, _, text in worse.specials}
    for phase, kind, text in better.specials:
        if text not in told_w and (hex_ in text or not re.search(_HEX, text)):
            return (kind, plain(text), _NO_SPECIAL.get(kind, f"no {kind} helps it"),
                    tuple(re.findall(rf"\b{_HEX}\b", text)))
    told_b = {text for _, _, text in better.specials}
    for phase, kind, text in worse.specials:
        if text not in told_b and hex_ in text:
            return (kind, f"no {kind}: " + plain(text), plain(text), tuple(re.findall(rf"\b{_HEX}\b", text)))
    return None


def _unit(d: Digest, hex_: str) -> Unit | None:
    from ..hexes import Hex

    try:
        return d.position.unit_at(Hex.parse(hex_))
    except (NhexError, ValueError):
        return None


def _facing(d: Digest, hex_: str) -> str | None:
    unit = _unit(d, hex_)
    return unit.facing.name if unit is not None else None


def _stood(d: Digest, hex_: str) -> bool:
    """Whether the unit was on the card's board before the player's turn (it is not the play's own)."""
    return d.start is not None and any(u.hex.label == hex_ and u.tile.key == d.key_at(hex_) for u in d.start.units)


def _first(text: str) -> int:
    found = re.match(r"\d+", text)
    return int(found.group(0)) if found else 0


def _hexes(text: str) -> tuple[str, ...]:
    return tuple(m.group(2) for m in _UNIT.finditer(text))


def _givers(text: str) -> str:
    return " and ".join(f"{m.group(1)} on {m.group(2)}" for m in _UNIT.finditer(text)) or text


def _lifted(better: Digest, worse: Digest, netter: str) -> tuple[str, tuple[str, ...]]:
    """How the net of the unit on ``netter`` (in ``worse``) is gone in ``better``: killed in some phase, gone
    before the battle, netted itself, or taken over."""
    name = worse.name(netter)
    if better.key_at(netter) != worse.key_at(netter):
        return f"{name} is gone before the battle", (netter,)
    if netter in better.deaths:
        killers = _killer_words(better, netter)
        return (f"{killers or 'a blow'} kills {name} {_phase_words(better.deaths[netter])}",
                tuple(k for k in better.killers.get(netter, ()) if k) + (netter,))
    if netter in better.netters:
        by = " and ".join(better.name(n) for n in better.netters[netter])
        return f"{by} nets {name}", tuple(better.netters[netter]) + (netter,)
    if netter in better.control:
        return f"{name} fights for {army_title(better.control[netter])}", (netter,)
    return f"the net of {name} is gone", (netter,)


def _changed(better: Digest, worse: Digest, *, to_player: bool) -> list[tuple[str, list[Blow], list[Blow]]]:
    """The sources of hits on an HQ (the enemy's, or with ``to_player`` the player's) whose damage ``better`` turns in
    the player's favour (more on the enemy HQ, less on the player's), biggest change first: ``(source, hits in
    better, hits in worse)``."""
    sign = -1 if to_player else 1
    changed = []
    for source in better.sources_on_hqs(to_player=to_player) | worse.sources_on_hqs(to_player=to_player):
        b, w = better.hq_damage(source, to_player=to_player), worse.hq_damage(source, to_player=to_player)
        delta = sign * (sum(x.wounds for x in b) - sum(x.wounds for x in w))
        if delta > 0:
            changed.append((-delta, source, b, w))
    return [(source, b, w) for _, source, b, w in sorted(changed)]


def contrast(better: Digest, worse: Digest) -> list[Finding]:
    """Every difference at the HQs between two battles of the same card, each with the rule that carries it: the
    player's units that deal more in ``better``, then the enemies that deal less to the player's HQ."""
    found: list[Finding] = []
    for source, b, w in _changed(better, worse, to_player=False):
        name = better.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        short = _short(name)
        result = f"{short} now hits {_hq_name(b)} {_instead(b, w)}"
        wname = worse.name(source) if re.fullmatch(_HEX, source) and worse.key_at(source) else name
        loss = f"{wname} hits {_hq_name(b)} {_amounts(w)}" if w else f"{wname} never hits {_hq_name(b)}"
        if re.fullmatch(_HEX, source) and worse.key_at(source) != better.key_at(source) and not w:
            loss = f"nothing on {source} hits {_hq_name(b)}"
        why = _why_stronger(better, worse, source) if re.fullmatch(_HEX, source) else None
        rule, cause, lack, agents = why or ("", "", "", ())
        found.append(Finding(rule, source, cause, lack, result, loss, agents))
    for source, b, w in _changed(better, worse, to_player=True):
        name = worse.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        short = _short(name)
        phases = sorted({x.phase for x in w if x.phase is not None}, reverse=True)
        when = f" in phase {', '.join(map(str, phases))}" if phases else ""
        result = (f"{short} hits {_hq_name(w)} only {_amounts(b)}" if b
                  else f"{short} never reaches {_hq_name(w)}")
        loss = f"{name} hits {_hq_name(w)} {_amounts(w)}{when}"
        why = _why_weaker(better, worse, source) if re.fullmatch(_HEX, source) else None
        rule, cause, lack, agents = why or ("", "", "", ())
        found.append(Finding(rule, source, cause, lack, result, loss, agents))
    return found


def _short(name: str) -> str:
    """``the Thug on c2`` → ``the Thug`` (a unit named a second time in a sentence)."""
    return re.sub(rf" on {_HEX}$", "", name)


# --- playing a card's lines out ---------------------------------------------------------------------------------


def _start(puzzle: Puzzle) -> Position:
    return replace(puzzle.position, hands=((puzzle.player, puzzle.offer),), to_move=puzzle.player)


@lru_cache(maxsize=4096)
def _parsed(line: str, player: str) -> Action:
    """An action line read (Lark): the explanations of a cooked card's thousands of plays read the same few lines
    again and again."""
    from ..notation.text import parse_action

    return parse_action(line, player)


def play(puzzle: Puzzle, lines: Sequence[str]) -> tuple[Position, list[tuple[str, Action, Position]]]:
    """Play the lines that are legal in turn (a line that depends on a left-out one is skipped): the end
    position, ready for battle, and each action played with the board it was played on."""
    from ..turns import actions as rules

    position, used = _start(puzzle), rules.NOTHING_USED
    done = []
    for line in lines:
        if line.startswith("#"):
            continue
        try:
            action = _parsed(line, puzzle.player)
            after = rules.apply(position, action, puzzle.player, used)
            used = rules.spend(position, action, puzzle.player, used)
        except (NhexError, rules.ChoiceRequired):
            continue
        done.append((line, action, position))
        position = after
    return replace(position, hands=(), to_move=puzzle.position.to_move), done


def worst_battle(puzzle: Puzzle, end: Position, line: Sequence[str] | None = None) -> battle.Outcome:
    """The first battle after ``end`` with its trace: along ``line`` (the search's principal variation) if given,
    else the outcome where the player ends worst off (the opponent's best choices)."""
    outcomes = battle.resolve(end, trace=True)
    if line is not None:
        chosen = next((o for o in outcomes if tuple(line[:len(o.choices)]) == o.choices), None)
        if chosen is not None:
            return chosen

    def margin(outcome: battle.Outcome) -> int:
        mine = outcome.hq.get(puzzle.player, 0)
        return mine - max((hp for a, hp in outcome.hq.items() if a != puzzle.player), default=0)

    return min(outcomes, key=lambda o: (margin(o), o.choices))


def _subject(action: Action, before: Position) -> tuple[str, tuple[str, ...]]:
    """What an action is called as the subject of a sentence, and the hexes it acts through."""
    if isinstance(action, Place):
        return unit_words(action.tile.key, action.hex.label), (action.hex.label,)
    if isinstance(action, Use):
        targets = tuple(h.label for h in action.targets)
        return f"the {tile_title(action.tile.key)}", targets
    if isinstance(action, Move):
        unit = before.unit_at(action.source)
        name = unit_words(unit.tile.key, action.source.label) if unit else f"the unit on {action.source}"
        if action.source == action.target:
            return f"turning {name}", (action.source.label,)
        return f"moving {name} to {action.target}", (action.source.label, action.target.label)
    if isinstance(action, PutPrize):
        return f"the {action.prize.replace('-', ' ').title()} prize on {action.hex}", (action.hex.label,)
    hexes = tuple(h.label for h in getattr(action, "hexes", ()) or ())
    for name in ("pusher", "target", "destination", "hex"):
        value = getattr(action, name, None)
        if value is not None and hasattr(value, "label"):
            hexes += (value.label,)
    kind = getattr(action, "kind", None) or getattr(action, "name", None)
    noun = type(action).__name__.lower()
    if kind:
        return f"the {str(kind).replace('-', ' ')} {noun}", hexes
    return f"the {noun}", hexes


def _direct(action: Action, before: Position, after: Position, player: str) -> str:
    """What an instant or a move does to the board before any battle: units removed, wounded, moved."""
    gone, hurt, moved, turned, pushed = [], [], [], [], []
    after_at = {u.hex: u for u in after.units}
    before_at = {u.hex: u for u in before.units}
    arrived = [u for u in after.units if u.hex not in before_at or before_at[u.hex].tile != u.tile]
    for unit in before.units:
        now = after_at.get(unit.hex)
        name = unit_words(unit.tile.key, unit.hex.label)
        if now is None or now.tile != unit.tile:
            there = next((u for u in arrived if u.tile == unit.tile and u.army == unit.army), None)
            if there is not None:
                arrived.remove(there)
                moved.append(f"{name} to {there.hex}")
            elif isinstance(action, Use) and action.tile.name == "push-back" and len(action.targets) >= 3 \
                    and action.targets[1] == unit.hex:
                pushed.append(f"{name} to {action.targets[2]}, where it is destroyed")
            elif unit.army != player:
                gone.append(name)
        elif now.wounds > unit.wounds or now.health < unit.health:
            hurt.append(name)
        elif now.facing != unit.facing:
            turned.append(f"{name} to face {now.facing.name}")
    parts = []
    struck = before_at.get(action.targets[0]) if isinstance(action, Use) and len(action.targets) == 1 else None
    if struck is not None and _blows_up(struck) and len(gone) > 1:
        # the instant hits one unit and its blast does the rest (a Mad Bomber: RULINGS 56; a Trap: RULINGS 53)
        name = unit_words(struck.tile.key, struck.hex.label)
        blasted = [g for g in gone if g != name]
        parts.append(f"sets off {name}, whose blast removes " + _listed(blasted))
    elif gone:
        parts.append("removes " + _listed(gone))
    if moved:
        parts.append("moves " + _listed(moved))
    if pushed:
        parts.append("pushes " + _listed(pushed))
    if hurt:
        parts.append("wounds " + _listed(hurt))
    if turned:
        parts.append("turns " + _listed(turned))
    return " and ".join(parts)


def _blows_up(unit: Unit) -> bool:
    """Whether a hit sets the unit off, its blast wounding its neighbours (the Mad Bomber; a Trap)."""
    from ..abilities.mad_bomber import MadBomber

    return MadBomber.carried_by(unit.tile) or "trap" in unit.tile.abilities


def _hexes_in(text: str) -> tuple[str, ...]:
    return tuple(re.findall(rf"\b{_HEX}\b", text))


def _listed(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sentence(subject: str, agents: tuple[str, ...], finding: Finding, direct: str) -> str:
    """``The Ganger on b3 kills the Net Fighter on b2 in phase 3, freeing the Thug on c2: the Thug now hits the
    Borgo HQ for 2.``"""
    cause = finding.cause
    result = finding.result
    if finding.rule == "a unit placed" and cause:
        return capital(f"{cause}.")
    if not cause:
        head = f"{subject} {direct}" if direct else subject
        return capital(f"{head}: {result}.") if direct else capital(f"with {subject}, {result}.")
    if direct and (finding.rule in ("a facing", "a unit removed") or finding.about in _hexes_in(direct)):
        return capital(f"{subject} {direct}: {result}.")
    if direct and not cause.startswith(subject):
        # an instant's or a move's doing comes first: "The Sniper removes the Net Fighter on d1, freeing …"
        if "is gone before the battle" in cause:
            cause = re.sub(r"^.*? is gone before the battle", f"{subject} {direct}", cause)
            return capital(f"{cause}: {result}.")
        return capital(f"{subject} {direct}; {cause}: {result}.")
    if cause.startswith(subject):
        return capital(f"{cause}: {result}.")
    if finding.rule == "a unit placed":
        return capital(f"{result}.")
    return capital(f"{cause}: {result}.")


@dataclass(frozen=True)
class Why:
    """The idea behind a play, per action: each action's sentence and the rule it turns on."""

    sentences: tuple[str, ...]
    rules: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(self.sentences)


def why_wins(puzzle: Puzzle, key: Sequence[str], end: Position | None = None,
             line: Sequence[str] | None = None, memo: dict[tuple[str, ...], Digest] | None = None) -> Why:
    """Why the key wins: for each of its actions, the battle without it against the key's, and the rule that
    carries the difference, said in one sentence per action that matters (at most two). ``memo``: the battles
    without an action already read for this card, by the lines left (a cooked card's plays share most of them)."""
    key = [k for k in key if not k.startswith("#")]
    played_end, done = play(puzzle, key)
    end = end if end is not None else played_end
    start = puzzle.position
    best = digest(end, worst_battle(puzzle, end, line), puzzle.player, start)
    sentences: list[str] = []
    rules: list[str] = []
    for index, (text, action, before) in enumerate(done):
        other = _without(puzzle, tuple(t for j, (t, _, _) in enumerate(done) if j != index), memo)
        findings = contrast(best, other)
        subject, through = _subject(action, before)
        after = _after(puzzle, done, index)
        direct = _direct(action, before, after, puzzle.player)
        if isinstance(action, Place):
            placed = played_end.unit_at(action.hex)
            direct = "" if placed is not None and placed.tile == action.tile else "is spent before the battle"
        chosen = _pick(findings, through)
        if chosen is None:
            continue
        if isinstance(action, Move):
            free = "turn" if action.source == action.target else "move"  # the Doomsday HQ's turns a unit in place
            how = f" (a free {free} by {action.by})" if action.by else ""
            facing = f" to face {action.facing.name}" if action.facing is not None else ""
            sentence = capital(f"{subject}{facing}{how}: {chosen.result}.")
        elif direct == "is spent before the battle" and chosen.rule == "survival":
            sentence = capital(f"{subject} is spent to keep {_name_of(best, chosen.about)} on the board: "
                               f"{chosen.result}.")
        else:
            sentence = _sentence(subject, through, chosen, direct)
        if sentence not in sentences:
            sentences.append(sentence)
            rules.append(chosen.rule)
    if not sentences:
        sentences.append(_plain_result(best))
        rules.append("")
    return Why(tuple(sentences[:2]), tuple(rules[:2]))


def _without(puzzle: Puzzle, rest: tuple[str, ...], memo: dict[tuple[str, ...], Digest] | None) -> Digest:
    """The battle of a play with one action left out, read (remembered in ``memo``, if given)."""
    found = memo.get(rest) if memo is not None else None
    if found is None:
        without, _ = play(puzzle, rest)
        found = digest(without, worst_battle(puzzle, without), puzzle.player, puzzle.position)
        if memo is not None:
            memo[rest] = found
    return found


def _name_of(d: Digest, hex_: str) -> str:
    return d.name(hex_) if re.fullmatch(_HEX, hex_) else f"the {hex_}"


def _after(puzzle: Puzzle, done: Sequence[tuple[str, Action, Position]], index: int) -> Position:
    if index + 1 < len(done):
        return done[index + 1][2]
    end, _ = play(puzzle, [t for t, _, _ in done])
    return end


def _pick(findings: list[Finding], through: tuple[str, ...]) -> Finding | None:
    """The finding the action starts (its hexes among the agents), else the largest difference."""
    if not findings:
        return None
    for finding in findings:
        if set(through) & set(finding.agents) or finding.about in through:
            return finding
    return findings[0]


def _plain_result(d: Digest) -> str:
    ours = sorted(d.sources_on_hqs(to_player=False))
    parts = []
    for source in ours:
        blows = d.hq_damage(source, to_player=False)
        name = d.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        parts.append(f"{name} hits {_hq_name(blows)} {_amounts(blows)}")
    return capital("; ".join(parts) + ".") if parts else "The enemy HQ cannot win the battle."


def why_fails(puzzle: Puzzle, attempt: Sequence[str], end: Position, line: Sequence[str],
              key: Sequence[str] | None = None, key_end: Position | None = None,
              key_line: Sequence[str] | None = None) -> str:
    """Why a try fails: the refutation (the opponent's choice, the enemy units that hit the player's HQ and in
    which phase), and against the key what the try lacks and the rule behind it."""
    worse = digest(end, worst_battle(puzzle, end, line), puzzle.player, puzzle.position)
    parts: list[str] = []
    for choice in [c for c in line if c][:2]:
        who, _, what = choice.partition(": ")
        parts.append(f"the {army_title(who)} player chooses {plain(what).replace(': ', ' ', 1)}" if what
                     else f"the opponent chooses {plain(choice)}")
    hits: dict[str, str] = {}
    for source in sorted(worse.sources_on_hqs(to_player=True)):
        blows = worse.hq_damage(source, to_player=True)
        name = worse.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        phases = sorted({b.phase for b in blows if b.phase is not None}, reverse=True)
        when = f" in phase {', '.join(map(str, phases))}" if phases else ""
        hits[source] = f"{name} hits {_hq_name(blows)} {_amounts(blows)}{when}"
    if key is not None:
        if key_end is None:
            key_end, _ = play(puzzle, key)
        better = digest(key_end, worst_battle(puzzle, key_end, key_line), puzzle.player, puzzle.position)
        for finding in contrast(better, worse)[:2]:
            lack = finding.lack
            name = worse.name(finding.about) if re.fullmatch(_HEX, finding.about) else ""
            if name and lack.startswith(name + " "):
                lack = "it" + lack[len(name):]
            lack = f" ({lack})" if lack else ""
            if finding.about in hits:
                hits[finding.about] += lack
            else:
                parts.append(finding.loss + lack)
    parts += list(hits.values())[:2]
    if not parts:
        return "The battle ends without the goal (no unit makes the difference at the HQs)."
    return capital("; ".join(parts)) + "."


# --- a try in its own terms (issue 26) --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TryWhy:
    """Why a try fails, in its own terms: what its actions do (``does``), what the opponent does to the player's
    HQ and what the try's board lacks (``against``), and which part of the goal the end misses (``missed``)."""

    does: str
    against: str
    missed: str

    def __str__(self) -> str:
        return " ".join(part for part in (self.does, self.against, self.missed) if part)

    @property
    def effect(self) -> tuple[str, str]:
        """What two tries with the same effect share: the opponent's answer and the goal missed."""
        return self.against, self.missed

    @property
    def brief(self) -> str:
        """What the actions do, without the details in brackets (two tries whose units both hit nothing, one
        striking N and one NW, do the same)."""
        return re.sub(r" \([^()]*\)", "", self.does)


def why_try_fails(puzzle: Puzzle, attempt: Sequence[str], end: Position, line: Sequence[str], hq: dict[str, int],
                  battles: int = 1, key: Sequence[str] | None = None, key_line: Sequence[str] | None = None) -> TryWhy:
    """Why a try fails, in its own terms: what each of its actions does in the battle (the placed unit's blows, or
    that it finds no enemy; what an instant removes), what the opponent does to the player's HQ, and which part of
    the goal the end misses (``hq``: every HQ's health at the end, worst case). Against the key (``key``), only
    what the try's own board lacks is said ("the Thug on c2 stays netted by the Net Fighter on b2"), never "the
    key's Brawler is missing"."""
    outcome = worst_battle(puzzle, end, line)
    worse = digest(end, outcome, puzzle.player, puzzle.position)
    _, done = play(puzzle, attempt)
    deeds = [capital(words) + "." for index in range(len(done)) if (words := _try_action(puzzle, worse, outcome,
                                                                                          done, index))]
    if not done:
        deeds.append("No tile is played.")
    against: list[str] = []
    for choice in [c for c in line if c][:2]:
        who, _, what = choice.partition(": ")
        # "the Moloch player chooses the Clown on d4 in phase 2: attacks" (the question, then the answer)
        against.append(f"the {army_title(who)} player chooses {plain(what)}" if what
                       else f"the opponent chooses {plain(choice)}")
    hits: dict[str, str] = {}
    played = {h for _, action, before in done for h in _subject(action, before)[1]}
    for source in sorted(worse.sources_on_hqs(to_player=False) - played)[:2]:  # the player's units standing before
        blows = worse.hq_damage(source, to_player=False)
        name = worse.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        hits[source] = f"{name} hits {_hq_name(blows)} {_amounts(blows)}{_when(blows)}"
    for source in sorted(worse.sources_on_hqs(to_player=True))[:2]:
        blows = worse.hq_damage(source, to_player=True)
        name = worse.name(source) if re.fullmatch(_HEX, source) else f"the {source}"
        hits[source] = f"{name} hits {_hq_name(blows)} {_amounts(blows)}{_when(blows)}"
    if key is not None:
        key_end, _ = play(puzzle, key)
        better = digest(key_end, worst_battle(puzzle, key_end, key_line), puzzle.player, puzzle.position)
        for finding in contrast(better, worse):
            lack = finding.lack
            if not lack or "key" in lack or lack in " ".join(deeds) or not _on_board(worse, lack):
                continue  # only what the try's own board shows ("the key's Brawler is missing" is not a reason)
            name = worse.name(finding.about) if re.fullmatch(_HEX, finding.about) else ""
            if finding.about in hits:
                hits[finding.about] += f" ({'it' + lack[len(name):] if name and lack.startswith(name + ' ') else lack})"
            else:  # said alone, a lack names its unit ("the Delta Shooter on c3: nothing turns its shot")
                hits[finding.about] = lack if not name or name in lack else f"{name}: {lack}"
            break
    against += list(hits.values())
    final = _final_position(end, line, battles)
    missed = goal_missed(puzzle, hq, final, _watched(puzzle, done))
    return TryWhy(" ".join(deeds), capital("; ".join(against)) + "." if against else "",
                  capital(missed) + "." if missed else "The goal is not reached.")


def _on_board(d: Digest, words: str) -> bool:
    """Whether every unit ``words`` names on a hex (``the Officer on c5``) stands there in the battle ``d``."""
    for title, hex_ in re.findall(rf"the ([A-Z][\w' -]*?) on ({_HEX})\b", words):
        key = d.key_at(hex_)
        if key is None or tile_title(key) != title:
            return False
    return True


def _try_action(puzzle: Puzzle, d: Digest, outcome: battle.Outcome,
                done: Sequence[tuple[str, Action, Position]], index: int) -> str:
    """What one action of a try does: a placed (or moved) unit's blows in the battle, or why it deals none; an
    instant's doing on the board."""
    _, action, before = done[index]
    after = _after(puzzle, done, index)
    if isinstance(action, Place):
        return _unit_deeds(d, outcome, action.hex.label)
    if isinstance(action, Move):
        subject, _ = _subject(action, before)
        deeds = _unit_deeds(d, outcome, action.target.label)
        return f"{subject}: {deeds.removeprefix(d.name(action.target.label) + ' ')}" if deeds else subject
    subject, _ = _subject(action, before)
    direct = _direct(action, before, after, puzzle.player)
    return f"{subject} {direct}" if direct else f"{subject} changes nothing on the board"


def _unit_deeds(d: Digest, outcome: battle.Outcome, hex_: str) -> str:
    """``the Brawler on c2 hits the Moloch HQ for 2 in phase 3``; ``… strikes N: no enemy beside it``; ``… is
    netted by …``; ``… dies in phase 3 before it acts``; a module's bonuses."""
    name = d.name(hex_)
    key = d.key_at(hex_)
    if key is None:
        return ""
    own = [b for b in d.blows if b.source == hex_ and not b.absorbed]
    said = []
    on_hq = [b for b in own if tile_kind(b.target_key) is Kind.HQ]
    if on_hq:
        said.append(f"hits {_hq_name(on_hq)} {_amounts(on_hq)}{_when(on_hq)}")
    for target in dict.fromkeys(b.target for b in own if tile_kind(b.target_key) is not Kind.HQ):
        blows = [b for b in own if b.target == target]
        verb = "kills" if target in d.deaths else "hits"
        said.append(f"{verb} {d.name(target)}" + (f" {_amounts(blows)}" if verb == "hits" else "") + _when(blows))
    absorbed = [b for b in d.blows if b.source == hex_ and b.absorbed]
    if absorbed:
        said.append(f"is stopped by a Medic on {d.name(absorbed[0].target)}")
    if not said:
        prefix = f"{key} on {hex_} "
        misses = [e.text.removeprefix(prefix) for e in outcome.trace if e.kind == "miss" and e.text.startswith(prefix)]
        if hex_ in d.idle:
            netters = " and ".join(d.name(n) for n in d.netters.get(hex_, [])) or "a net"
            said.append(f"is netted by {netters} and does nothing")
        elif hex_ in d.deaths and not d.acted.get(hex_):  # struck down before its initiative came
            killers = _killer_words(d, hex_)
            acts = bool(tile(key).initiative)  # a module never acts: it is only killed
            said.append(f"is killed {_phase_words(d.deaths[hex_])}" + (f" by {killers}" if killers else "")
                        + (" before it acts" if acts else ""))
        elif misses:
            said.append("hits nothing (it " + "; it ".join(misses) + ")")
    gives = sorted({f"+{value}" for blow in d.blows if blow.source != hex_
                    for match in _BONUS.finditer(blow.how) if match.group(2) == hex_
                    for value in (match.group(4),)})
    helped = sorted({d.name(b.source) for b in d.blows if b.source and b.source != hex_
                     and any(m.group(2) == hex_ for m in _BONUS.finditer(b.how))})
    if gives and helped:
        said.append(f"gives {_listed(helped)} {_listed(gives)}")
    if hex_ in d.deaths and d.acted.get(hex_) and said:
        killers = _killer_words(d, hex_)
        said.append(f"is killed {_phase_words(d.deaths[hex_])}" + (f" by {killers}" if killers else ""))
    if not said:
        said.append("changes nothing at the HQs")
    return f"{name} " + ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]


def _final_position(end: Position, line: Sequence[str], battles: int) -> Position:
    """The board after the battles that follow the play, along the principal variation's choices."""
    current, rest = end, tuple(line)
    for _ in range(battles):
        outcomes = battle.resolve(current)
        chosen = next((o for o in outcomes if rest[:len(o.choices)] == o.choices), outcomes[0])
        rest = rest[len(chosen.choices):]
        current = chosen.position
    return current


def _watched(puzzle: Puzzle, done: Sequence[tuple[str, Action, Position]]) -> dict[Hex, Hex | None]:
    """Where the units on the hexes a goal names stand after the play (a move takes one along)."""
    watched: dict[Hex, Hex | None] = {h: h for h in goal_hexes(puzzle.goal)}
    for _, action, _ in done:
        if isinstance(action, Move):
            watched = {goal: (action.target if now == action.source else now) for goal, now in watched.items()}
    return watched


_OP_WORDS = {">=": "at least", ">": "more than", "<=": "at most", "<": "less than", "==": "exactly"}


def goal_missed(puzzle: Puzzle, hq: dict[str, int], final: Position, watched: dict[Hex, Hex | None]) -> str:
    """Which part of the card's goal the end misses, in words: ``the Moloch HQ ends at 3, and the goal needs it
    destroyed: three more wounds`` (NOTATION §6 goals); empty when the goal holds."""
    start_hp = {u.army: u.health for u in puzzle.position.units if u.is_hq}
    ending = Ending(start_hp, {a: hq.get(a, 0) for a in start_hp}, final, watched)
    return "; ".join(_missed(puzzle.goal, puzzle.player, ending))


def _missed(goal: Goal, player: str, ending: Ending) -> list[str]:
    if goal_holds(goal, player, ending):
        return []
    hp = ending.end_hp
    mine_name = f"the {army_title(player)} HQ"
    if isinstance(goal, (Win, DrawOrWin)):
        alive, mine, best = side_standing(player, ending)
        points = ending.position.mode == "score"
        if not alive and not points:
            return [f"{mine_name} is destroyed"]
        rivals = [a for a, v in hp.items() if a != player and v == best]
        rival = f"the {army_title(rivals[0])} HQ" if rivals and not points else "the best enemy"
        measure = "points" if points else "health"
        if mine == best and isinstance(goal, Win):
            return [f"{mine_name} and {rival} end level at {mine} {measure}, and a win needs {mine_name} ahead"]
        return [f"{mine_name} ends at {mine} {measure}, behind {rival} at {best}"]
    if isinstance(goal, Survive):
        return [f"{mine_name} is destroyed"]
    if isinstance(goal, Destroy):
        left = hp.get(goal.army, 0)
        return [f"the {army_title(goal.army)} HQ ends at {left}, and the goal needs it destroyed: "
                f"{count_words(left)} more wound{'s' if left != 1 else ''}"]
    if isinstance(goal, HpCompare):
        name = f"the {army_title(goal.army)} HQ"
        if goal.damage:
            taken = ending.start_hp.get(goal.army, 0) - hp.get(goal.army, 0)
            if goal.value == 0 and goal.op in ("==", "<="):
                return [f"{name} loses {taken}, and the goal needs it unharmed"]
            return [f"{name} loses {taken}, and the goal needs it to lose {_OP_WORDS[goal.op]} {goal.value}"]
        return [f"{name} ends at {hp.get(goal.army, 0)}, and the goal needs it at {_OP_WORDS[goal.op]} {goal.value}"]
    if isinstance(goal, Alive):
        where = ending.watched.get(goal.hex)
        unit = ending.position.unit_at(where) if where is not None else None
        if goal.alive:
            return [f"the unit on {goal.hex.label} is destroyed, and the goal needs it alive"]
        return [f"{unit_words(unit.tile.key, unit.hex.label) if unit else 'the unit'} still stands, and the goal "
                f"needs it destroyed"]
    if isinstance(goal, Not):
        return [f"the goal forbids {goal.goal}, which happens"]
    if isinstance(goal, And):
        return [part for g in goal.goals for part in _missed(g, player, ending)]
    if isinstance(goal, Or):
        parts = [part for g in goal.goals for part in _missed(g, player, ending)]
        return ["none of the goal's parts holds: " + "; nor ".join(parts)] if parts else []
    return [f"the goal {goal} is not reached"]

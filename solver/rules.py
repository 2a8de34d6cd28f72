"""The rule-option registry (NOTATION §8, ``nhex rules``).

Where the rulebooks are silent or disagree, nhex adopts one reading (``../shared/RULINGS.md``) and makes it
the default of a named option, so that a judge who reads the passage differently can say so in the position
file: ``rules 3.0 clown-hits-hq=no``. Each option cites the passage it implements.

Every option the engine consults is registered here, in one place; the battle, the turn rules and the solver
read options only through :meth:`RuleSet.option`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

EDITIONS = ("3.0", "2.0")
NEWEST_EDITION = "3.0"


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One reading the rulebooks leave open: ``name=value`` with ``default`` and the passage behind it."""

    name: str
    default: str
    choices: tuple[str, ...]
    summary: str
    passage: str
    #: ``(edition, default)`` where an edition's default differs from ``default`` (``tie-break``).
    edition_defaults: tuple[tuple[str, str], ...] = ()

    def default_for(self, edition: str) -> str:
        return next((value for name, value in self.edition_defaults if name == edition), self.default)


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "clown-hits-hq", "yes", ("yes", "no"),
        "The Clown's explosion wounds adjacent HQs too.",
        "RULINGS 10; ES Moloch sheet, Payaso: 'incluyendo los CGs'. The PL Duel book and M. Oracz's "
        "'Kwestie sporne' treat the blast as a Bomb, which spares HQs: choose 'no' for that reading.",
    ),
    RuleOption(
        "clown-may-explode", "yes", ("yes", "no"),
        "In its phase the Clown may explode instead of attacking (its owner's choice).",
        "RULINGS 10; ES Moloch sheet, Payaso; PL Duel book, Klaun. 'no' treats the Clown as a plain warrior.",
    ),
    RuleOption(
        "gauss-boosted", "no", ("yes", "no"),
        "Whether strength bonuses (Officers, HQ) raise a Gauss Cannon's beam.",
        "RULINGS 11; ES Moloch sheet, Cañón Gauss: its strength is never boosted.",
    ),
    RuleOption(
        "boss-ranged", "no", ("yes", "no"),
        "Whether the Hegemony Boss's +1 strength also raises ranged attacks.",
        "RULINGS 13; ES Hegemony sheet, Jefe: '+1 de Fuerza'; the 2E example battle applies it to melee only.",
    ),
    RuleOption(
        "medic-saves-from-clown", "yes", ("yes", "no"),
        "A Medic may absorb a Clown's blast on a linked unit (never the exploding Clown itself).",
        "RULINGS 3 and 4; 3E USING MEDICS: 'an attack from one edge in one Initiative phase'.",
    ),
    # --- between battles (solver/actions.py, solver/game.py) ---
    RuleOption(
        "push-back-hq", "yes", ("yes", "no"),
        "Push Back may push an enemy HQ.",
        "3E PUSH BACK: 'an adjacent enemy unit', no exception; 2E TILE DESCRIPTIONS: tiles 'affect both: unit "
        "tiles and HQ tiles (unless specified otherwise)'. 'no' for players who keep HQs in place.",
    ),
    RuleOption(
        "recon-center-moves", "all", ("all", "move-tile"),
        "Which moves of the Recon Center's side may go 2 hexes: every move (Move tile, Mobility, Transport) "
        "or the Move tile only.",
        "PL Duel book, Centrum rozpoznania: 'every time any Outpost unit moves, it may move up to 2 hexes'; "
        "ES Outpost sheet, Recon Center: units 'that use the Move action' ('move-tile').",
    ),
    RuleOption(
        "recon-center-path", "any", ("any", "empty-step"),
        "A 2-hex Recon Center move needs only an empty destination ('any'), or also an empty hex between.",
        "ES 'moverse 2 espacios', PL 'aż o 2 pola': neither names a path; 3E MOBILITY: 'The unit may only "
        "Move to an empty hex'.",
    ),
    RuleOption(
        "transport-stack", "per-transport", ("per-transport", "one"),
        "A unit linked to several Transports gets one extra move from each, or one in all.",
        "3E MODULES: 'except for the Transport modules, whose effects are not cumulative and each of them "
        "works independently'; ES/PL Hegemony Transport: 'an additional move action'.",
    ),
    RuleOption(
        "transport-movable", "yes", ("yes", "no"),
        "Whether a Move tile or a push may move the Hegemony Transport itself.",
        "PL Hegemonia, Transport: 'Transport nie może poruszać sam siebie' (it gives itself no move); 3E "
        "MODULES: a module moves when 'a Move tile is played on them or an opposing unit Pushes them'. "
        "'no' for ES 'Transport no puede moverse'.",
    ),
    RuleOption(
        "tie-break-hand", "no", ("no", "yes"),
        "In the tie-break turn, whether a player who has nothing left to draw may still use tiles in hand.",
        "3E VICTORY: 'if a player has no more tiles left to draw, they may only use the abilities of the "
        "tiles they have on the board such as a unit's Mobility'. 'yes' reads 'as if the game were to "
        "continue as normal' as allowing saved tiles.",
    ),
    RuleOption(
        "full-board-deadlock", "draw", ("draw", "compare-health"),
        "How the game ends when the board is full and a Battle changes nothing (no further Battle could).",
        "3E BATTLE: 'resolve the next Battles until the board is not full or until the game is over' (silent "
        "when nothing changes); 3E BATTLE ATLAS: 'A Battle caused by a full board that removes no unit ends "
        "the game in a draw'. 'compare-health' ends it as after the Final Battle.",
    ),
    # --- variants and multiplayer (NOTATION §10.6) ---
    RuleOption(
        "beginning", "standard", ("standard", "alternative"),
        "How the game begins: the standard start or the Alternative Beginning variant.",
        "3E GAME VARIANTS, ALTERNATIVE BEGINNING.",
    ),
    RuleOption(
        "terrain-medic", "yes", ("yes", "no"),
        "A Medic may absorb the wounds Poisonous Forest, Radioactive Wasteland and Base Defense Systems deal (each "
        "one attack), as it absorbs a drowning in a Whirlpool.",
        "B13 FOREST, POISONOUS; WASTELAND, RADIOACTIVE; BASE, DEFENSE SYSTEMS are silent; B13 WATER, DEEP and "
        "WHIRLPOOL: 'can be saved by a Medic'; 3E MEDIC absorbs an attack of an enemy unit 'or Sniper, Grenade or "
        "any other Instant Action tile'; RULINGS 37 lets a Medic absorb venom. 'no': only units and instants.",
    ),
    RuleOption(
        "reinforcement", "no", ("no", "yes"),
        "Whether the Reinforcement variant is played.",
        "3E GAME VARIANTS, REINFORCEMENT.",
    ),
    RuleOption(
        "moloch-team-fire", "yes", ("yes", "no"),
        "In a team match, whether Moloch's attacks hit its teammate's units too.",
        "3E TEAM MATCH, Moloch in a Team Match (the rule is marked 'optional': 'no' leaves it out).",
    ),
    RuleOption(
        "tie-break", "yes", ("yes", "no"),
        "Equal HQ health after the Final Battle: one more turn each and an additional Battle ('yes'), or a "
        "draw ('no'). Default 'yes' under rules 3.0, 'no' under rules 2.0.",
        "RULINGS 29; 3E VICTORY; 2E VICTORY; PL ZWYCIESTWO (the Duel book: a draw).",
        edition_defaults=(("2.0", "no"),),
    ),
)

_BY_NAME = {option.name: option for option in OPTIONS}


def rule_option(name: str) -> RuleOption:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown rule option {name!r} (`nhex rules` lists them)") from None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """An edition and the options set explicitly; every other option has its default."""

    edition: str = NEWEST_EDITION
    overrides: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    def option(self, name: str) -> str:
        for key, value in self.overrides:
            if key == name:
                return value
        return rule_option(name).default_for(self.edition)

    def enabled(self, name: str) -> bool:
        return self.option(name) == "yes"

    def with_options(self, settings: Iterable[tuple[str, str]]) -> RuleSet:
        merged = dict(self.overrides)
        merged.update(settings)
        return RuleSet(self.edition, frozenset(merged.items()))

    @property
    def is_default(self) -> bool:
        return self.edition == NEWEST_EDITION and not self.overrides

    def __str__(self) -> str:
        return " ".join(["rules", self.edition, *(f"{k}={v}" for k, v in sorted(self.overrides))])

    @classmethod
    def make(cls, edition: str = NEWEST_EDITION, settings: Iterable[tuple[str, str]] = ()) -> RuleSet:
        """A rule set with its settings checked against the registry (``ValueError`` on a bad one)."""
        if edition not in EDITIONS:
            raise ValueError(f"unknown rules edition {edition!r} (expected one of {', '.join(EDITIONS)})")
        checked = {}
        for name, value in settings:
            option = rule_option(name)
            if value not in option.choices:
                raise ValueError(f"rule option {name} takes {' or '.join(option.choices)}, not {value!r}")
            if value != option.default_for(edition):
                checked[name] = value
        return cls(edition, frozenset(checked.items()))


DEFAULT_RULES = RuleSet()

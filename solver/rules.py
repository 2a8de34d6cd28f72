"""The rule-option registry (NOTATION §8, ``nhex rules``).

Where the rulebooks are silent or disagree, nhex adopts one reading (``../shared/RULINGS.md``) and makes it
the default of a named option, so that a judge who reads the passage differently can say so in the position
file: ``rules 3.0 clown-hits-hq=no``. Each option cites the passage it implements.

Every option the engine consults is registered here, in one place; the battle, the turn rules and the solver
read options only through :meth:`RuleSet.option`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
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
    #: Where ``default`` comes from: the book (3E, 2E, ES, PL; the 3rd-edition texts are authoritative) or, where
    #: the books are silent, nhex's house ruling. Every default in ``edition_defaults`` comes from that edition's
    #: rulebook (2.0: 2E).
    source: str = "3E"

    def default_source(self, edition: str) -> str:
        """Which book gives the default under ``edition`` (``nhex rules`` lists it)."""
        if any(name == edition for name, _ in self.edition_defaults):
            return {"2.0": "2E", "3.0": "3E"}.get(edition, edition)
        return self.source

    def default_for(self, edition: str) -> str:
        return next((value for name, value in self.edition_defaults if name == edition), self.default)


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "clown-hits-hq", "yes", ("yes", "no"),
        "The Clown's explosion wounds adjacent HQs too.",
        "RULINGS 10; ES Moloch sheet, Payaso: 'incluyendo los CGs'. The PL Duel book and M. Oracz's "
        "'Kwestie sporne' treat the blast as a Bomb, which spares HQs: choose 'no' for that reading.",
        source="ES",
    ),
    RuleOption(
        "clown-may-explode", "yes", ("yes", "no"),
        "In its phase the Clown may explode instead of attacking (its owner's choice).",
        "RULINGS 10; ES Moloch sheet, Payaso; PL Duel book, Klaun. 'no' treats the Clown as a plain warrior.",
        source="ES, PL",
    ),
    RuleOption(
        "gauss-boosted", "no", ("yes", "no"),
        "Whether strength bonuses (Officers, HQ) raise a Gauss Cannon's beam.",
        "RULINGS 11; ES Moloch sheet, Cañón Gauss: its strength is never boosted.",
        source="ES",
    ),
    RuleOption(
        "boss-ranged", "no", ("yes", "no"),
        "Whether the Hegemony Boss's +1 strength also raises ranged attacks.",
        "RULINGS 13; ES Hegemony sheet, Jefe: '+1 de Fuerza'; the 2E example battle applies it to melee only.",
        source="ES; 2E example",
    ),
    RuleOption(
        "rocket-armor", "yes", ("yes", "no"),
        "Armor on the side a New York rocket enters from lowers its 3 wounds by 1, as it lowers every ranged attack "
        "(never a melee blow or an instant).",
        "RULINGS 67 (settles 34's armor point): the designer's answers to disputed questions, Babel 13 part: armor "
        "lowers all ranged attacks, 'Strzał, Shotgun, Rakieta' (shot, Shotgun, Rocket); 3E ARMOR. B13 NEW YORK, "
        "Rocket Launcher is silent. 'no': armor does not stop a rocket.",
        source="the designer's answers",
    ),
    RuleOption(
        "watchtower-specials", "choose", ("choose", "first"),
        "On a Watchtower the Shotgun's blast and the Rocket choose which enemy on their way they hit, as the "
        "Sharpshooter ability lets a shot choose its target.",
        "B13 HILL, WATCHTOWER: 'A shooting unit on a Watchtower with any ranged attack gains Sharpshooter ability'; "
        "B13 NEW YORK, Shotgun: 'Like most shooters, the shotgun hits the first enemy unit in the line of fire'; "
        "Rocket Launcher: 'The first enemy it hits'. 'first': they keep hitting the first enemy.",
        source="house ruling (B13 silent)",
    ),
    RuleOption(
        "clown-destroys-foundations", "yes", ("yes", "no"),
        "The Clown's blast destroys the foundations (Roots, Mines) on the six hexes next to it, as a Bomb does; a "
        "unit standing on one is hit as well. 'no': only instants destroy foundations.",
        "RULINGS 68 (changes 25's 'only instants'); the designer's answers to disputed questions, Babel 13 part: "
        "the Clown's explosion 'is treated exactly as the Bomb'; B13 FOUNDATION TILES (the Bomb destroys "
        "foundations). 'no': RULINGS 25, PL ŻETONY PODŁOŻA: foundations are destroyed 'tylko przez ... Żetony "
        "Natychmiastowe' (only by instant tiles).",
        source="the designer's answers",
    ),
    RuleOption(
        "ny-medic-direct-hit", "absorb-only", ("absorb-only", "any-wound"),
        "A Medic beside its New York HQ loses the HQ's toughness point only when it absorbs an attack "
        "('absorb-only'); 'any-wound': also when it is wounded directly, so one wound kills it there.",
        "RULINGS 31 reads 'takes wound' as absorbing; B13 MORE ON MEDIC IN NEW YORK: 'If Medic adjacent to NJ's HQ "
        "takes wound, it is killed and removed from board immediately - bonus from NS's HQ will not help him in "
        "that situation' (NOTATION §10.6).",
        source="house ruling (B13 ambiguous)",
    ),
    RuleOption(
        "medic-saves-from-clown", "yes", ("yes", "no"),
        "A Medic may absorb a Clown's blast on a linked unit (never the exploding Clown itself).",
        "RULINGS 3 and 4; 3E USING MEDICS: 'an attack from one edge in one Initiative phase'.",
        source="house ruling (3E silent)",
    ),
    RuleOption(
        "redirect-loop", "endless", ("endless", "stop"),
        "A branch of a redirected attack that comes back, through an entrance edge, into a redirector on its own "
        "path loops for ever: every enemy unit (an HQ too) a branch of the attack reaches is destroyed, whatever "
        "its toughness or armor ('endless'); 'stop': the shot stops there (RULINGS 51, option redirect-revisit).",
        "RULINGS 65 (replaces 51); the first official app's in-app rules, Doomsday, 'Infinite Combo': 'A split "
        "ranged attack, which gets back to a splitting Unit creates an infinite loop and inflicts an infinite "
        "damage'; ES Doomsday sheet, under Tripler and Trap: 'No es un error, es tan solo una característica de "
        "Doomsday' (it is not a mistake, just a feature of Doomsday).",
        source="app, ES",
    ),
    RuleOption(
        "redirect-revisit", "shot", ("shot", "branch"),
        "Under redirect-loop=stop: a redirected shot never enters the same redirector twice and stops there: "
        "counting every redirector any branch of the shot entered ('shot') or only those on the branch's own path "
        "('branch').",
        "RULINGS 51 (no passage: 'a shot never enters the same redirector twice in one action'); ES Doomsday "
        "sheet, Tripler: the shot leaves by 'las 3 salidas' (the 3 exits) at once, so its branches are one shot.",
    ),
    RuleOption(
        "mad-bomber", "npc", ("npc", "mercenary"),
        "How a Mad Bomber a player places from the hand plays: the neutral non-player character ('npc') or the "
        "placing player's hired mercenary ('mercenary').",
        "2E SPECIAL EXPANSION, Mad Bomber as non player character: 'A player can put Mad Bomber somewhere on the "
        "board ... just like with normal tiles'; Mad Bomber as a mercenary: 'The player which places Mad Bomber on "
        "the board puts his army marker ... on him' (RULINGS 56-57).",
    ),
    RuleOption(
        "bomber-right", "next", ("next", "previous"),
        "In a game of three or more, the Mad Bomber goes onto the pile of the player 'to the right' of the one who "
        "set him off: the next player in turn order ('next') or the one before ('previous').",
        "2E Mad Bomber as non player character: 'goes to the player to the right of the player who detonated "
        "Mad Bomber'; 'If discarded ... he goes to the next player in turn order'. No rulebook says which way the "
        "turns pass; 'next' reads both sentences alike (RULINGS 56).",
        source="house ruling (2E silent)",
    ),
    RuleOption(
        "hired-bomber", "returns", ("returns", "discarded"),
        "Where a hired Mad Bomber goes once set off or discarded: onto a pile, as the neutral one does "
        "('returns'), or onto his owner's discard pile like any of the army's units ('discarded').",
        "RULINGS 57 (unsettled); 2E Mad Bomber as a mercenary: 'Most of the rules given above are still valid', "
        "the return among them; 2E RULES: 'Mercenary, when played, belongs to one's army just as any other tile'.",
        source="house ruling (2E silent)",
    ),
    # --- between battles (solver/turns/actions.py, solver/turns/game.py) ---
    RuleOption(
        "pusher-when-placed", "yes", ("yes", "no"),
        "The New York Pusher may make its free push in the turn it is placed.",
        "RULINGS 36 (unsettled); B13 DESCRIPTION OF NEW ICONS, Push Back: 'once during each of his turns', no "
        "exception named. 'no': from its owner's next turn on.",
    ),
    RuleOption(
        "push-back-hq", "yes", ("yes", "no"),
        "Push Back may push an enemy HQ.",
        "3E PUSH BACK: 'an adjacent enemy unit', no exception; 2E TILE DESCRIPTIONS: tiles 'affect both: unit "
        "tiles and HQ tiles (unless specified otherwise)'. 'no' for players who keep HQs in place.",
        source="3E",
    ),
    RuleOption(
        "recon-center-moves", "all", ("all", "move-tile"),
        "Which moves of the Recon Center's side may go 2 hexes: every move (Move tile, Mobility, Transport) "
        "or the Move tile only.",
        "PL Duel book, Centrum rozpoznania: 'every time any Outpost unit moves, it may move up to 2 hexes'; "
        "ES Outpost sheet, Recon Center: units 'that use the Move action' ('move-tile').",
        source="PL",
    ),
    RuleOption(
        "recon-center-path", "any", ("any", "empty-step"),
        "A 2-hex Recon Center move needs only an empty destination ('any'), or also an empty hex between.",
        "ES 'moverse 2 espacios', PL 'aż o 2 pola': neither names a path; 3E MOBILITY: 'The unit may only "
        "Move to an empty hex'.",
        source="house ruling (ES, PL silent)",
    ),
    RuleOption(
        "transport-stack", "per-transport", ("per-transport", "one"),
        "A unit linked to several Transports gets one extra move from each, or one in all.",
        "3E MODULES: 'except for the Transport modules, whose effects are not cumulative and each of them "
        "works independently'; ES/PL Hegemony Transport: 'an additional move action'.",
        source="3E",
    ),
    RuleOption(
        "transport-movable", "yes", ("yes", "no"),
        "Whether a Move tile or a push may move the Hegemony Transport itself.",
        "PL Hegemonia, Transport: 'Transport nie może poruszać sam siebie' (it gives itself no move); 3E "
        "MODULES: a module moves when 'a Move tile is played on them or an opposing unit Pushes them'. "
        "'no' for ES 'Transport no puede moverse'.",
        source="PL",
    ),
    RuleOption(
        "tie-break-hand", "no", ("no", "yes"),
        "In the tie-break turn, whether a player who has nothing left to draw may still use tiles in hand.",
        "3E VICTORY: 'if a player has no more tiles left to draw, they may only use the abilities of the "
        "tiles they have on the board such as a unit's Mobility'. 'yes' reads 'as if the game were to "
        "continue as normal' as allowing saved tiles.",
        source="3E",
    ),
    RuleOption(
        "full-board-deadlock", "draw", ("draw", "compare-health"),
        "How the game ends when the board is full and a Battle changes nothing (no further Battle could).",
        "3E BATTLE: 'resolve the next Battles until the board is not full or until the game is over' (silent "
        "when nothing changes); 3E BATTLE ATLAS: 'A Battle caused by a full board that removes no unit ends "
        "the game in a draw'. 'compare-health' ends it as after the Final Battle.",
        source="3E",
    ),
    RuleOption(
        "transporter-netted-swap", "no", ("no", "yes"),
        "Whether Smart may swap a placed tile onto the hex of a netted Transporter.",
        "RULINGS 22 (unsettled there); PL SMART, Transporter: the player 'może zdjąć z planszy Transporter'; PL "
        "OPIS POSZCZEGÓLNYCH IKON, Sieć: a netted unit may not 'wykonywać jakichkolwiek akcji' and PL KWESTIA "
        "SIECIARZA: 'Zasieciowana jednostka nie może się poruszyć w żaden sposób'. 'no': the swap is the "
        "Transporter's ability, which a net stops; 'yes' reads it as the player's placement only.",
    ),
    RuleOption(
        "takeover-by-captured-agitator", "yes", ("yes", "no"),
        "Whether an Agitator that an Outpost Scoper holds takes over for the Outpost (its link works for the "
        "Scoper's side) or takes nothing ('no').",
        "PL VEGAS, Sytuacje szczególne: 'w normalny sposób Skoper przejmuje Agitatora' (the Scoper takes the "
        "Agitator as usual); RULINGS 8: a module a Scoper holds works for the Outpost. The book does not say "
        "what the held Agitator's takeover does.",
    ),
    RuleOption(
        "rotation-turns-hq", "yes", ("yes", "no"),
        "Whether the Rotation instant may turn the player's own HQ (the Vegas HQ's facing decides its takeover edge).",
        "PL ŻETONY NATYCHMIASTOWE, OBRÓT: 'pozwala dowolnie obrócić jeden własny Żeton' (one own tile, the HQ "
        "named nowhere as an exception; ROSZADA says 'także Sztab'). 'no' keeps HQs out, as 3E MOVE's 'unit' might.",
    ),
    RuleOption(
        "transporter-swap-by-controller", "yes", ("yes", "no"),
        "Whether the army that controls a Transporter (Vegas, having taken it over) may swap a placed tile onto its "
        "hex ('yes'), or only Smart, and only while it controls the Transporter ('no').",
        "PL VEGAS, Sztab: a taken unit 'pod każdym względem traktowana jest jak własna' (RULINGS 17: no exception); "
        "PL SMART, Transporter: 'gracz dowodzący armią Smarta może zdjąć z planszy Transporter'.",
    ),
    # --- variants and multiplayer (NOTATION §10.6) ---
    RuleOption(
        "beginning", "standard", ("standard", "alternative"),
        "How the game begins: the standard start or the Alternative Beginning variant.",
        "3E GAME VARIANTS, ALTERNATIVE BEGINNING.",
        source="3E",
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
        source="3E",
    ),
    RuleOption(
        "moloch-team-fire", "moloch", ("moloch", "yes", "no"),
        "In a team match, Moloch's attacks hit its teammate's units while the teammate's attacks pass over Moloch's "
        "('moloch'); 'yes': both ways (the reading before RULINGS 71); 'no': no exception, Moloch is a teammate "
        "like any other. Nets and pushes reach both ways under 'moloch' and 'yes'.",
        "RULINGS 71 (settles 64's open point); 3E TEAM MATCH: 'Friendly units cannot be hit by a teammate's "
        "attacks'; Moloch in a Team Match ('optional'): 'Its units hit and wound friendly units as usual ... "
        "Moloch's allies can push back its units, be pushed back by them, and always disable each other's units "
        "with a Net' (the exception names Moloch's hits only, the nets and pushes both ways).",
        source="3E",
    ),
    RuleOption(
        "score-cap", "yes", ("yes", "no"),
        "In the score mode no player scores more than 20 points ('yes'; the rest is lost); 'no' counts every "
        "wound. Default 'yes' under rules 3.0, 'no' under rules 2.0.",
        "3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: 'Players may never score more than 20 points' (RULINGS 62); "
        "2E CHANGES IN NEW EDITION, Optional Score Rules: 'The first player to get 20 points wins the game', no cap.",
        edition_defaults=(("2.0", "no"),),
    ),
    RuleOption(
        "tie-break", "yes", ("yes", "no"),
        "Equal HQ health after the Final Battle: one more turn each and an additional Battle ('yes'), or a "
        "draw ('no'). Default 'yes' under rules 3.0, 'no' under rules 2.0.",
        "RULINGS 29; 3E VICTORY; 2E VICTORY; PL ZWYCIESTWO (the Duel book: a draw).",
        edition_defaults=(("2.0", "no"),),
        source="3E",
    ),
    # --- Babel 13 scenarios and the campaign (solver/notation/scenarios.py, solver/turns/campaign.py) ---
    RuleOption(
        "free-turn-draw", "three", ("three", "opening"),
        "A scenario's free turns (B13 SCENARIO 2): the starting player draws up to 3 tiles in the first of them "
        "('three'), or 1 as the first player's first turn ('opening'). The second player draws 3 either way.",
        "B13 SCENARIO 2: STEEL CONVOY, Start: 'He places his HQ, and then takes as many free turns as difference in "
        "injuries ... Then the second player places their HQ, and begins with drawing 3 tiles.' The book lifts the "
        "second player's opening limit and says nothing of the first's; a reward turn drawing less than the "
        "opponent's first would be odd (house reading; 3E GAME SEQUENCE for 'opening').",
        source="house ruling (B13 silent)",
    ),
    RuleOption(
        "warehouse-damaged-by", "army", ("army", "commander"),
        "Who wounds a Warehouse whose `damaged-by=` names armies: units of a named army under its own command "
        "('army': an allied unit of another army commanded by it may not), or every unit a named army commands "
        "('commander').",
        "B13 SCENARIO 4: RECKLESS MISSION: 'Only New York can damage the Warehouse (Outpost units may not)', of the "
        "Outpost units the New York player commands; SCENARIO 3: 'Only New York can damage the Warehouse'.",
        source="B13",
    ),
    RuleOption(
        "allied-setup-count", "exact", ("exact", "at-most"),
        "A scenario's allied units at the start whose `reinforcements` line says `exact=yes` (the book's scenarios "
        "2, 3 and 4): all N are put on the board, or all its `on=` hexes hold if fewer ('exact'); or any number up to "
        "N ('at-most'). Lines without `exact=yes` (SCENARIO 5's 'may place') are at most N either way.",
        "B13 SCENARIO 2: STEEL CONVOY, System board: 'the Neojungle player selects 5 Moloch units of their choice "
        "(except HQ) and puts them on the board'; SCENARIO 3: 'chooses one Borgo unit (except HQ) and puts it on any "
        "Bunker hex'; SCENARIO 4: 'selects any 3 Outpost units of their choice (except HQ) and puts them in Bunker "
        "hexes'; against SCENARIO 5: 'they may place any 3 Hegemony units'.",
        source="B13",
    ),
    RuleOption(
        "campaign-regain-last", "no", ("no", "yes"),
        "Whether the winner of a campaign's last scenario regains its 3 Hit Points before the campaign's winner "
        "is named ('no': they are regained only 'before starting the next scenario').",
        "B13 SPECIAL CAMPAIGN RULES: 'the winning HQ ... regains 3 Hit Points points before starting the next "
        "scenario'; VICTORY: 'The army whose Headquarters finishes with highest amount of Hit Points wins the "
        "campaign' (house reading: after the last scenario there is no next one).",
        source="house ruling (B13 silent)",
    ),
    RuleOption(
        "campaign-tie", "draw", ("draw", "scenario-tie"),
        "Equal HQ Hit Points at the end of a campaign: nobody wins ('draw'), or the army a tied scenario goes to "
        "(its `victory ... tie=`, Neojungle in the book's campaign: 'scenario-tie').",
        "B13 VICTORY: 'The army whose Headquarters finishes with highest amount of Hit Points wins the campaign' "
        "names no winner for equal Hit Points; SPECIAL CAMPAIGN RULES give ties to Neojungle only 'for purposes of "
        "the next scenario's starting conditions' (house reading).",
        source="house ruling (B13 silent)",
    ),
    # --- readings by edition (issue 9: every difference the 2E text states) ---
    RuleOption(
        "unlucky-draw", "yes", ("yes", "no"),
        "A player whose tiles in front are all Instant Action tiles may discard them all and draw anew ('yes'); "
        "'no' has no such redraw. Default 'yes' under rules 3.0, 'no' under rules 2.0.",
        "3E UNLUCKY DRAW: 'if all the tiles that a player has in front of them are Instant Action tiles ... they "
        "may discard all of them and draw new tiles'; 2E GAME SEQUENCE has no such rule: 'after the tiles have "
        "been drawn, the player must discard one of the three tiles'.",
        edition_defaults=(("2.0", "no"),),
        source="3E",
    ),
    # --- the Duel board (NOTATION §10.2) ---
    RuleOption(
        "energy-hq-last-point", "no", ("no", "yes"),
        "Whether HQ health may buy Energy down to 0 (destroying the HQ): 'no' keeps at least 1 health.",
        "RULINGS 27 (unsettled); PL LICZNIK ENERGII, 2: 'zakupić punkty Energii w zamian za punkty "
        "Wytrzymałości Sztabu, w cenie 1 PE za 1 punkt' (buy Energy for HQ health, 1 for 1). The book names a "
        "destroyed HQ only as the work of the enemy (PL CEL GRY, ZWYCIĘSTWO) and no purchase that ends the game; "
        "'yes' reads the price as unlimited.",
    ),
)

_BY_NAME = {option.name: option for option in OPTIONS}


@lru_cache(maxsize=4096)
def _option(rules: RuleSet, name: str) -> str:
    """The value of option ``name`` under ``rules`` (asked in every battle's loop: kept once worked out)."""
    for key, value in rules.overrides:
        if key == name:
            return value
    return rule_option(name).default_for(rules.edition)


def rule_option(name: str) -> RuleOption:
    try:
        return _BY_NAME[name]
    except KeyError:
        from .spelling import did_you_mean

        raise ValueError(f"unknown rule option {name!r} (`nhex rules` lists them)" + did_you_mean(name, list(_BY_NAME))) from None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """An edition and the options set explicitly; every other option has its default."""

    edition: str = NEWEST_EDITION
    overrides: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    #: The options asked so far, by name (a battle asks some in its loop: a dict read, where hashing the rule set
    #: for a cache costs a Python call; issue 15). Never compared, hashed or written.
    _asked: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def option(self, name: str) -> str:
        value = self._asked.get(name)
        if value is None:
            value = self._asked[name] = _option(self, name)
        return value

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

"""A tile's card in words (``nhex tiles ARMY TILE``): its edges, initiative, toughness, count, and what each of its
icons and abilities does, each with the rulebook passage behind it.

The words are data: one sentence per icon, module effect, ability and instant, found by the name the army files
use (solver/armies/*.army); the rules themselves live in the engine and the ability families, which these
sentences describe. Passages: 3E = the 3rd edition rulebook (authoritative), 2E, ES and PL the army sheets, B13
Babel 13, RULINGS the house rulings (docs/FAQ-RULINGS.md and `nhex rules`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hexes import DIRECTIONS
from ..tiles import Edge, Kind, Tile

#: What an edge icon does: (words, passage).
ICON_WORDS: dict[str, tuple[str, str]] = {
    "melee": ("melee {n}: {wounds} to the enemy unit on the adjacent hex that way", "3E MELEE ATTACK"),
    "ranged": ("ranged {n}: {wounds} to the first enemy unit on the line that way, flying over friends",
               "3E RANGED ATTACK"),
    "armor": ("armor: a ranged attack arriving on this side loses 1 strength (no help against melee or instants)",
              "3E ARMOR"),
    "net": ("net: the enemy unit on the adjacent hex that way does nothing (no attacks, no bonuses, no moves)",
            "3E USING NETS"),
    "link": ("link: the module's effect reaches the unit on the adjacent hex that way", "3E MODULES"),
    "gauss": ("Gauss beam: 1 wound to every enemy unit on the line, HQs included, never boosted; armor lowers it "
              "for the unit that has it", "RULINGS 11; ES Cañón Gauss (Gauss Cannon)"),
    "shotgun": ("shotgun: the first enemy on the line takes 3 wounds adjacent, 2 at two hexes, 1 at three; no "
                "bonuses", "B13 NEW YORK, Shotgun; RULINGS 33"),
    "rocket": ("rocket: enters the hex that way, then up to two more of its owner's choosing; 3 wounds to the "
               "first enemy it meets; no bonuses", "B13 NEW YORK, Rocket Launcher; RULINGS 34"),
    "redirect-entrance": ("entrance: a friendly ranged attack entering here is turned out of the exit edge(s)",
                          "ES Doomsday sheet, 'entrada' (entrance); RULINGS 49-50"),
    "redirect-exit": ("exit: where a redirected friendly shot leaves", "ES Doomsday sheet, 'salida' (exit); RULINGS 49-50"),
    "trap-trigger": ("trigger: an enemy attack arriving on this side sets the Trap off",
                     "ES Doomsday sheet, Trampa (Trap); RULINGS 53"),
}

#: What a module effect (or an HQ working as one) does to the units it is linked to: (words, passage). ``{v}`` is
#: the value, ``{whom}`` "friendly" or "enemy".
MODULE_WORDS: dict[str, tuple[str, str]] = {
    "melee-bonus": ("linked {whom} units: melee strength {v:+d}", "3E OFFICER"),
    "ranged-bonus": ("linked {whom} units: ranged strength {v:+d}", "3E OFFICER"),
    "initiative-bonus": ("linked {whom} units: initiative {v:+d} (never below 0)", "3E SCOUT; 3E MORE ON INITIATIVE"),
    "melee-and-ranged-bonus": ("linked {whom} units: melee and ranged strength {v:+d}",
                               "ES Moloch sheet, Mózg (The Brain)"),
    "melee-and-initiative-bonus": ("linked {whom} units: melee strength and initiative {v:+d}",
                                   "B13 NEOJUNGLE, Symbiont"),
    "strength-and-initiative-bonus": ("linked {whom} units: strength and initiative {v:+d}",
                                      "ES Hegemony sheet, Boss; 2E EXAMPLE OF PLAY; RULINGS 13"),
    "medic": ("Medic: a linked friendly unit ignores every wound of one enemy attack (or instant), and the Medic is "
              "discarded", "3E MEDIC; 3E USING MEDICS; RULINGS 4"),
    "extra-initiative": ("linked friendly units act once more, one phase after their last normal action",
                         "3E MORE ON INITIATIVE; ES Outpost sheet (HQ), Moloch sheet (Mother); RULINGS 6"),
    "toughness-bonus": ("linked friendly units: toughness {v:+d}, lost at once when the link is broken",
                        "B13 NEW YORK, HQ"),
    "melee-counts-as-ranged": ("once per battle one linked unit may turn one attack from melee to ranged or back",
                               "ES/PL Hegemony sheets, Kwatermistrz (Quartermaster); RULINGS 9"),
    "grant-mobility": ("in its player's turn each linked unit may move and/or turn as if it had Mobility",
                       "ES Hegemony sheet, Transport"),
    "grant-move-and-rotate": ("in its player's turn each adjacent friendly unit may move and/or turn as if it had "
                              "Mobility", "PL SMART, Sztab (HQ)"),
    "control-takeover": ("the enemy unit on its link (never an HQ) fights for this army in every respect while "
                         "linked", "PL VEGAS, Sztab and Agitator: 'Przejęcie Kontroli' (takeover); RULINGS 17"),
    "take-over-enemy-modules": ("an enemy module on its link gives its bonuses to this army's units instead",
                                "ES Outpost sheet, Scoper; PL Skoper; RULINGS 8"),
    "double-move": ("while it is on the board, this army's units move up to 2 hexes with a Move",
                    "ES Outpost sheet, Recon Center; PL Centrum Rozpoznania"),
    "matrix": ("the Motherland: a Neojungle module linked to any unit of the Motherland helps every unit in it",
               "B13 NEOJUNGLE, HQ; B13 MODULES AND THE MOTHERLAND"),
}

#: What a unit's own ability does: (words, passage).
ABILITY_WORDS: dict[str, tuple[str, str]] = {
    "mobility": ("Mobility: in its player's turn it may move 1 hex and/or turn", "3E MOBILITY"),
    "gauss": ("its Gauss beam passes through units: see the edge", "RULINGS 11"),
    "explosion": ("in its phase it may explode instead of attacking: 1 wound to every adjacent unit, HQs "
                  "included, no bonuses, armor no help; then it is gone", "RULINGS 10; ES Moloch sheet, Payaso (the Clown)"),
    "venom": ("its attacks leave venom markers: a poisoned unit takes 1 wound at the end of every later battle",
              "B13 NEOJUNGLE, Nightshade; RULINGS 37-38"),
    "sharpshooter": ("Sharpshooter: it chooses which enemy on its line of fire it shoots", "B13 DESCRIPTION OF NEW ICONS, "
                     "Sharpshooter; RULINGS 32"),
    "spy": ("Spy: it links itself to enemy modules and HQs as if they were friendly", "B13 DESCRIPTION OF NEW ICONS, "
            "Spy; RULINGS 35"),
    "shotgun": ("its shotgun weakens with distance: see the edge", "B13 NEW YORK, Shotgun"),
    "rocket": ("its rocket's path is its owner's choice: see the edge", "B13 NEW YORK, Rocket Launcher"),
    "push": ("once in each of its owner's turns it pushes an adjacent enemy unit one hex away",
             "B13 DESCRIPTION OF NEW ICONS, Push Back; RULINGS 36"),
    "transport": ("placed next to a friendly unit, it may swap places with it", "PL SMART, Transporter"),
    "regenerate": ("destroyed, it goes back on top of its draw pile and is the next tile drawn",
                   "PL SMART, Bio-droid; RULINGS 24"),
    "redirect": ("a friendly ranged attack entering an entrance edge leaves through its exit edge(s)",
                 "ES Doomsday sheet; RULINGS 49-50"),
    "trap": ("an enemy attack on its marked side makes it explode: 1 wound to every adjacent tile, friend or foe, "
             "HQs too; then it is discarded", "ES Doomsday sheet, Trampa (Trap); RULINGS 53"),
    "rotate-one-unit-per-turn": ("once in its player's turn one friendly unit may turn to any facing",
                                 "ES Doomsday sheet, CG: 'puede girar una unidad amiga' (may turn one friendly unit)"),
}

#: What each instant (and foundation) tile does, by its name in the army files: (words, passage).
INSTANT_WORDS: dict[str, tuple[str, str]] = {
    "battle": ("starts a battle at once; not playable once a player has drawn the last tile", "3E BATTLE"),
    "move": ("moves one own unit to an adjacent empty hex and/or turns it (not a netted one)", "3E MOVE"),
    "push-back": ("an own unit pushes an adjacent enemy unit one hex away from it", "3E PUSH BACK"),
    "sniper": ("1 wound to any enemy unit on the board but an HQ", "3E SNIPER"),
    "grenade": ("destroys one enemy unit completely on a hex adjacent to its HQ (never an HQ; not from a netted HQ)",
                "3E GRENADE"),
    "air-strike": ("1 wound to every unit, friend or foe, on 7 hexes: one and the six around it (not HQs)",
                   "3E AIR STRIKE"),
    "small-bomb": ("1 wound to every unit, friend or foe, on 3 mutually adjacent hexes; never an HQ",
                   "B13 THE NEW INSTANT TILES, Small bomb; RULINGS 41"),
    "terror": ("in their next turn no opponent may place a tile", "PL SMART, Terror; RULINGS 23"),
    "rotation": ("turns any one unit, friend or foe, to any facing", "PL VEGAS, Obrót (Rotation)"),
    "castling": ("two own units swap places", "PL VEGAS, Roszada (Castling); B13 NEOJUNGLE"),
    "mine": ("a foundation: the unit that comes onto it is destroyed, and the Mine with it",
             "PL ŻETONY PODŁOŻA (foundation tiles); B13 FOUNDATION TILES, Mine; RULINGS 25, 42"),
    "roots": ("a foundation that belongs to the Motherland; not a unit, so no module links to it",
              "B13 FOUNDATION TILES, Roots; B13 ROOTS ISSUES"),
}


@dataclass(frozen=True, slots=True)
class CardLine:
    """One line of a tile's card: what it says, and the passage behind it (empty for plain facts)."""

    text: str
    passage: str = ""


def card_lines(tile: Tile) -> list[CardLine]:
    """The tile's card, line by line: count and kind, initiative, toughness, each edge's icons, its module effect,
    its abilities, and the army file's own rule line where it says more."""
    lines = [CardLine(f"{tile.title} ({tile.key}): {tile.kind}, {tile.count} in the army"
                      + (f"; Polish {tile.polish}" if tile.polish else "")
                      + (f"; also {', '.join(tile.aliases)}" if tile.aliases else ""))]
    if tile.kind is Kind.HQ:
        lines.append(CardLine("an HQ: 20 Health (it loses the game at 0); melee 1 on every side in phase 0, never "
                              "harming the other HQ; its ability works on the units it links, never on itself",
                              "3E UNIT TILES; 3E VICTORY"))
    if tile.is_unit and tile.kind is not Kind.HQ:
        if tile.initiative:
            lines.append(CardLine(f"initiative {', '.join(map(str, tile.initiative))}: it acts in "
                                  + (f"phases {' and '.join(map(str, tile.initiative))}" if len(tile.initiative) > 1
                                     else f"phase {tile.initiative[0]}"), "3E INITIATIVE"))
        elif tile.kind is Kind.WARRIOR:
            lines.append(CardLine("no initiative: it never attacks, but its icons work from the moment it is placed",
                                  "3E UNIT TILES"))
        lines.append(CardLine("toughness 0: the first wound destroys it" if not tile.toughness else
                              f"toughness {tile.toughness}: it survives {tile.toughness} wound"
                              f"{'s' if tile.toughness != 1 else ''} and dies at the {_ordinal(tile.toughness + 1)}",
                              "3E TOUGHNESS"))
    lines += _edge_lines(tile)
    if tile.module is not None:
        words, passage = MODULE_WORDS.get(tile.module.type, (tile.module.type, ""))
        text = words.format(v=tile.module.value or 0, whom=tile.module.target)
        if tile.kind is Kind.HQ:  # 3E UNIT TILES: HQ abilities are "described on the reference sheet of each Army"
            passage = f"{ARMY_SHEETS.get(tile.army, 'the army sheet')}, HQ"
        if tile.module.reach and tile.module.reach > 1:
            text += f"; it reaches {tile.module.reach} hexes along its links"
            passage += "; RULINGS 54"
        lines.append(CardLine(text, passage))
    for ability in sorted(tile.abilities):
        words, passage = ABILITY_WORDS.get(ability, (ability, ""))
        lines.append(CardLine(words, passage))
    if tile.kind in (Kind.INSTANT, Kind.FOUNDATION) and tile.name in INSTANT_WORDS:
        words, passage = INSTANT_WORDS[tile.name]
        lines.append(CardLine(words, passage))
    described = tile.module is not None or tile.abilities or tile.name in INSTANT_WORDS or tile.kind is Kind.HQ
    if tile.rule and not described:
        # The army file's own summary, where no sentence above says what the tile does beyond its icons.
        lines.append(CardLine(f"the army file says: {tile.rule}"))
    return lines


#: Where each army's tile texts are (3E has none: "described on the reference sheet of each Army").
ARMY_SHEETS = {"moloch": "ES Moloch sheet", "outpost": "ES Outpost sheet", "borgo": "ES Borgo sheet",
               "hegemony": "ES Hegemony sheet", "doomsday": "ES Doomsday sheet", "smart": "PL SMART",
               "vegas": "PL VEGAS", "new-york": "B13 NEW YORK", "neojungle": "B13 NEOJUNGLE"}


def _edge_lines(tile: Tile) -> list[CardLine]:
    """One line per kind of icon, naming the sides that carry it (the tile upright: N is its printed top)."""
    if tile.edges is None:
        return []
    sides: dict[tuple[str, int], list[str]] = {}
    for direction, edge in zip(DIRECTIONS, tile.edges):
        for icon, n in _icons(edge):
            sides.setdefault((icon, n), []).append(direction.name)
    if tile.kind is Kind.HQ:  # said in the HQ's own line when on every side (the Vegas HQ links one side only)
        for everywhere in (("melee", 1), ("link", 0)):
            if len(sides.get(everywhere, [])) == 6:
                del sides[everywhere]
    lines = []
    for (icon, n), directions in sides.items():
        words, passage = ICON_WORDS.get(icon, (icon, ""))
        where = "every side" if len(directions) == 6 else " ".join(directions)
        lines.append(CardLine(f"{where}: {words.format(n=n, wounds=f'{n} wound' + ('s' if n != 1 else ''))}",
                              passage))
    both = [d.name for d, edge in zip(DIRECTIONS, tile.edges) if edge.melee and edge.ranged]
    if both:
        lines.append(CardLine(f"{' '.join(both)}: melee and ranged on one side: both attacks are made, each on its "
                              "own (armor meets the ranged one)", "RULINGS 12; ES/PL"))
    return lines


def _icons(edge: Edge) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if edge.melee:
        found.append(("melee", edge.melee))
    if edge.ranged:
        found.append(("ranged", edge.ranged))
    found += [(name, 0) for name, present in (("armor", edge.armor), ("net", edge.net), ("link", edge.link)) if present]
    found += [(special, 0) for special in sorted(edge.special)]
    return found


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def card_json(tile: Tile) -> list[dict[str, str]]:
    """The card's lines for ``nhex tiles ARMY TILE --json``."""
    return [{"text": line.text, "passage": line.passage} for line in card_lines(tile)]

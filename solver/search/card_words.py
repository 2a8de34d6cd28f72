"""The words of a generated card: its title (the theme, never the key's tile or hex), its story (varied, in the
armies' colours) and the lines of its explanation (trace events said for players).

The idea itself is found by :mod:`solver.search.idea`; this module only chooses words. Choices that vary (which title of a
theme, which story opening) are made from a stable hash of the card's own text, so the same card always gets the
same words, in any process (no global random state).
"""

from __future__ import annotations

import re
import zlib
from typing import Sequence

from ..engine.fight import Event
from .idea import army_title, capital, plain

#: Titles by the rule that carries the key's idea (:class:`solver.search.idea.Finding` ``rule``), none naming a tile.
THEMES: dict[str, tuple[str, ...]] = {
    "a net lifted": ("Cut the Net", "Slipping the Net", "Loose Threads", "Untangled"),
    "a net cast": ("Net Drop", "Caught in the Net", "Tangled Up", "Hold Fast"),
    "a bonus": ("Orders from Above", "Borrowed Strength", "Linked Up", "Chain of Command"),
    "a bonus freed": ("Orders Restored", "Back in Command", "Clear Lines"),
    "a bonus denied": ("Broken Chain", "Cut Off", "Orders Lost"),
    "a capture": ("Turncoat Link", "Stolen Orders", "Borrowed Command"),
    "a takeover": ("Change of Heart", "Turncoat", "Switching Sides"),
    "an extra action": ("Second Shot", "Double Time", "Once More"),
    "initiative": ("Quick Draw", "A Step Ahead", "Ahead of Time"),
    "first strike": ("First Strike", "Before the Blow", "Beat Them to It"),
    "survival": ("Still Standing", "Against the Odds", "Hold the Line"),
    "a Medic": ("Take the Blow", "Patched Up", "Field Dressing", "Stitched Up", "Saved by a Hair", "Not Today"),
    "a Medic spent": ("Take the Blow", "Patched Up", "Field Dressing", "Stitched Up", "Saved by a Hair",
                      "Not Today"),
    "a unit removed": ("Clean Sweep", "Out of the Way", "Clearing the Ground"),
    "a unit placed": ("Point Blank", "The Right Place", "Into the Gap", "Close Quarters", "Foothold",
                      "Right on Time", "The Missing Piece", "Filling the Gap", "Boots on the Ground", "Dug In",
                      "Holding the Spot", "Last Tile Down"),
    "a facing": ("About Face", "Turn Around", "Eyes Front", "Turn to Face", "Line of Sight", "Look Sharp",
                 "The Other Way Round", "Facing Facts"),
    "redirect": ("Bank Shot", "Around the Corner"),
    "venom": ("Bitter Cure", "Slow Poison"),
    "terrain": ("Lay of the Land", "High Ground"),
}

#: Titles by the grade's ideas when the trace names no rule.
GRADE_THEMES: dict[str, tuple[str, ...]] = {
    "denial": ("No Way Out", "Every Answer", "Checkmate"),
    "net": ("Net Drop", "Tangled Up"),
    "initiative": ("First Strike", "Before the Blow"),
    "module": ("Linked Up", "Chain of Command"),
    "instant": ("Quick Hand", "Sleight of Hand", "Out of Nowhere", "Bolt from the Blue", "Snap Decision"),
    "actions": ("Two Step", "One Two", "In Concert"),
    "": ("Final Battle", "Last Stand", "The Deciding Blow"),
}

#: How each army is spoken of in a story (data, not rules: one phrase per army, found by its name).
VOICES: dict[str, tuple[str, ...]] = {
    "moloch": ("Moloch's machines", "the machine army"),
    "outpost": ("the Outpost", "the last free humans of the Outpost"),
    "borgo": ("Borgo's mutants", "the mutant horde"),
    "hegemony": ("the Hegemony's gangs", "the Hegemony"),
    "new-york": ("the New York militia", "New York"),
    "neojungle": ("the Neojungle", "the living jungle"),
    "smart": ("Smart", "the Smart machines"),
    "vegas": ("Vegas", "the Vegas syndicate"),
    "doomsday": ("the Doomsday Machine", "Doomsday"),
}

_OPENINGS = (
    "{mine} and {theirs} meet in the ruins for one last battle.",
    "Rubble and wire everywhere: one turn for {mine} before the guns speak.",
    "Against {theirs}, sure of the win, one last word for {mine}.",
    "Smoke hangs over the hexes; the next move belongs to {mine}.",
    "One turn, one chance: {mine} against {theirs}.",
)

_HINTS = {
    "a net lifted": "Someone is caught in a net that must not hold.",
    "a net cast": "An enemy gun must be silenced without killing it.",
    "a bonus": "A gun fires harder with the right help beside it.",
    "a bonus freed": "Help is on the board, but it cannot reach.",
    "a bonus denied": "The enemy leans on help that can be taken away.",
    "a capture": "The enemy's own help can serve the other side.",
    "a takeover": "Not every enemy needs to stay an enemy.",
    "an extra action": "One shot is not enough.",
    "initiative": "Speed decides this one.",
    "first strike": "The enemy must fall before its turn to act comes.",
    "survival": "A unit must live long enough to act.",
    "a Medic": "Someone must take the blow.",
    "a Medic spent": "Someone must take the blow.",
    "a unit removed": "Something stands in the way.",
    "a unit placed": "There is exactly one place to strike from.",
    "a facing": "Which way a unit looks matters.",
}


def _interesting_first(rules: Sequence[str]) -> list[str]:
    """The rules with a plain placement last: a key that places a striker and also lifts a net is about the net."""
    return sorted(rules, key=lambda rule: rule == "a unit placed")


def _pick(options: Sequence[str], seed: str) -> str:
    return options[zlib.crc32(seed.encode()) % len(options)]


def title(rules: Sequence[str], ideas: Sequence[str], seed: str) -> str:
    """A title from the theme of the key's idea: the first rule the explanation found, else the grade's ideas."""
    for rule in _interesting_first(rules):
        if rule in THEMES:
            return _pick(THEMES[rule], seed)
    for idea in ("denial", "net", "initiative", "module", "instant"):
        if idea in ideas:
            return _pick(GRADE_THEMES[idea], seed)
    if any(i.endswith(" actions") for i in ideas):
        return _pick(GRADE_THEMES["actions"], seed)
    return _pick(GRADE_THEMES[""], seed)


def voice(name: str, seed: str) -> str:
    return _pick(VOICES.get(name, (army_title(name),)), seed)


def story(player: str, opponent: str, hp: dict[str, int], tiles_to_play: int, rules: Sequence[str],
          seed: str) -> str:
    """A short story for the card: an opening in the armies' colours, a hint at the theme, and the task."""
    mine, theirs = voice(player, seed + "m"), voice(opponent, seed + "t")
    opening = capital(_pick(_OPENINGS, seed).format(mine=mine, theirs=theirs))
    hint = next((_HINTS[r] for r in _interesting_first(rules) if r in _HINTS), "")
    tiles = "one tile" if tiles_to_play == 1 else f"up to {tiles_to_play} tiles"
    task = (f"{army_title(player)} plays {tiles}; its HQ has {hp.get(player, 0)} health, the "
            f"{army_title(opponent)} HQ {hp.get(opponent, 0)}. Win the Final Battle.")
    return " ".join(p for p in (opening, hint, task) if p)


_MEDIC = re.compile(r"^Medic on (?P<medic>\S+) absorbs (?P<src>.+?) → (?P<tgt>.+?); the Medic on (?P<spent>\S+) "
                    r"is discarded")


def event_words(event: Event) -> str:
    """One trace event for players: tiles by their names, a Medic's absorption said in full ("the Medic on d2
    takes the attack of the Armored Hunter on d4 on the Officer on d3")."""
    match = _MEDIC.match(event.text)
    if match:
        spent = match.group("spent")
        also = "" if spent == match.group("medic") else f" (the Medic on {spent} is discarded for it)"
        return (f"the Medic on {match.group('medic')} takes the attack of {plain(match.group('src'))} on "
                f"{plain(match.group('tgt'))}{also}")
    text = plain(event.text)
    text = re.sub(r" \((melee|ranged|gauss|blast|instant)\)$", "", text)
    return text

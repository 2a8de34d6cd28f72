"""Battle traces for the terminal and the JSON of ``nhex battle --json`` (NOTATION §9)."""

from __future__ import annotations

from typing import Callable

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from ..engine.battle import Outcome
from ..errors import RuleNotImplemented
from ..engine.fight import Event, Unsettled
from ..position import Position

_STYLE = {
    "phase": "bold", "death": "red", "destroyed": "bold red", "hq": "yellow", "medic": "green",
    "armor": "cyan", "netted": "magenta", "net": "magenta", "capture": "magenta", "control": "magenta",
    "initiative": "blue", "explosion": "bold red", "quartermaster": "blue", "miss": "dim",
}


def outcome_json(outcome: Outcome) -> dict:
    units = {}
    for unit in outcome.position.units:
        entry: dict = {"tile": unit.tile.key, "facing": unit.facing.name, "wounds": 0 if unit.is_hq else unit.wounds}
        if unit.venom:
            entry["venom"] = unit.venom
        if unit.prizes:  # NOTATION §10.8
            entry["prizes"] = list(unit.prizes)
        if unit.owner:
            entry["owner"] = unit.owner
        units[unit.hex.label] = entry
    result: dict = {"hq": dict(sorted(outcome.hq.items())), "units": units, "choices": list(outcome.choices)}
    position = outcome.position
    if position.foundations:
        result["foundations"] = {f.hex.label: f.tile.key for f in position.foundations}
    # NOTATION §10.8: `score`, and what the ability families report (`mad_bomber_goes_to`).
    if position.mode == "score":
        scores = dict(position.scores)
        result["score"] = {army: scores.get(army, 0) for army in sorted(outcome.hq)}
    for key, value in outcome.reports:  # what the ability families report (mad_bomber_goes_to)
        if isinstance(value, Unsettled):
            raise RuleNotImplemented(value.rule)  # never a key left out silently (NOTATION §9, exit 4)
        result[key] = list(value) if isinstance(value, tuple) else value
    if position.held_prizes:
        result["held_prizes"] = {army: list(names) for army, names in position.held_prizes}
    warehouses = {hex_.label: {"wounds": element.wounds, "prizes": list(element.prizes)}
                  for element in position.terrain if element.type == "warehouse" for hex_ in element.hexes}
    if warehouses:
        result["warehouses"] = warehouses
    return result


def event_json(event: Event) -> dict:
    """One trace event (``nhex battle --json --trace``, an additive extension of NOTATION §9)."""
    return {"phase": event.phase, "kind": event.kind, "text": event.text, "how": event.how, "rule": event.rule}


def battle_json(outcomes: tuple[Outcome, ...], trace: bool = False, before: Position | None = None) -> dict:
    """NOTATION §9; with ``trace``, each outcome also carries its ``trace``: every event, in order. A scenario's
    position (``before``) adds to each outcome its ``scenario``: ``start_hp``, ``injuries`` and ``leaders`` (README,
    "Scenarios and the campaign")."""
    found = []
    for outcome in outcomes:
        entry = outcome_json(outcome)
        if before is not None and before.scenario is not None:
            from ..notation.scenarios import standing

            now = standing(before, outcome.hq)
            if now is not None:
                entry["scenario"] = now.json()
        if trace:
            entry["trace"] = [event_json(e) for e in outcome.trace]
        found.append(entry)
    return {"outcomes": found}


def render_outcome(outcome: Outcome, number: int, total: int) -> Tree:
    """One outcome's trace: the phases, each hit and why, who dies, HQ health after each phase."""
    title = Text(f"Outcome {number} of {total}" if total > 1 else "Battle", style="bold underline")
    if outcome.choices:
        title.append("  (" + "; ".join(outcome.choices) + ")", style="italic")
    tree = Tree(title)
    phase_node, current = tree, None
    for event in outcome.trace:
        text = Text(event.text, style=_STYLE.get(event.kind, ""), overflow="fold")
        if event.how:
            text.append(f": {event.how}")
        if event.rule:
            text.append(f"  [{event.rule}]", style="dim")
        if event.kind == "phase":
            phase_node, current = tree.add(text), event.phase
        elif phase_node is tree or event.phase == current:
            phase_node.add(text)
        else:  # what takes effect between phases (nets, captures, initiatives once units have left)
            tree.add(text)
    health = ", ".join(f"{army} {hp}" for army, hp in sorted(outcome.hq.items()))
    if not outcome.trace and not health:  # an empty position (issue 10): say so rather than print an empty line
        tree.add(Text("no units: nothing happens", style="dim"))
    elif health:
        tree.add(Text(f"HQ health after the battle: {health}", style="bold yellow"))
    else:
        tree.add(Text("no HQ on the board", style="dim"))
    return tree


def render_battle(before: Position, outcomes: tuple[Outcome, ...],
                  board_renderer: Callable[[Position], RenderableType] | None = None) -> Group:
    parts: list[RenderableType] = []
    for i, outcome in enumerate(outcomes, start=1):
        tree = render_outcome(outcome, i, len(outcomes))
        if before.scenario is not None:  # a scenario: its injuries and who leads (solver/notation/scenarios.py)
            from ..notation.scenarios import standing

            now = standing(before, outcome.hq)
            for line in now.lines() if now is not None else ():
                tree.add(Text(line, style="bold yellow"))
        parts.append(tree)
        if board_renderer is not None:
            parts.append(board_renderer(outcome.position))
    return Group(*parts)

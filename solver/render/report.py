"""The solver's report: what a composer reads (verdict, key, duals, the why, tries) and its JSON (NOTATION §9)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text
from rich.tree import Tree

from ..engine.battle import resolve
from ..notation.cards import Puzzle
from ..search.idea import TryWhy, why_try_fails, why_wins
from ..position import Position
from ..search.solve import Report, Try
from .trace import render_outcome

_VERDICT = {"sound": ("SOUND", "bold green"), "cooked": ("COOKED", "bold yellow"), "none": ("NO SOLUTION", "bold red")}


def report_json(report: Report, *, counters_only: bool = False, puzzle: Puzzle | None = None) -> dict:
    """NOTATION §9. A search stopped at a limit proves nothing (issue 10): ``solved`` is false, ``verdict`` null,
    ``solutions`` empty, and the winning plays found so far are under ``found``, with ``stopped`` saying why.
    Given the ``puzzle``, each solution has a ``why`` and each try a ``why`` (:mod:`solver.search.idea`)."""
    plays = [{"actions": list(s.actions), "hq": dict(sorted(s.hq.items())), "duals": [list(d) for d in s.duals]}
             for s in report.solutions]
    if puzzle is not None:
        read: dict = {}  # the battles without one action, shared by the plays of a cooked card
        for play, solution in zip(plays, report.solutions):
            if solution.ends and solution.verdict.battles:
                play["why"] = str(why_wins(puzzle, solution.actions, None, solution.verdict.line, read))
    data: dict = {
        "solved": bool(report.solutions) and not report.stopped,
        "verdict": None if report.stopped else report.verdict,
        "solutions": [] if report.stopped else plays,
    }
    if report.stopped:
        data["found"] = plays
    data |= {
        "searched": report.plays,
        "orders": report.paths,
        "positions": report.positions,
        "pruned": report.pruned,
        "ends_cut": report.ends_cut,
        "runs_cut": report.runs_cut,
        "uses_cut": report.uses_cut,
    }
    if not counters_only:
        data["seconds"] = round(report.seconds, 3)
    if report.tries:
        data["tries"] = [{"actions": list(t.actions), "hq": dict(sorted(t.hq.items())), "margin": t.verdict.margin,
                          "refutation": list(t.verdict.line)} for t in report.tries]
        if puzzle is not None and puzzle.then != "nothing":
            whys = [_why_fails(puzzle, report, attempt) for attempt in report.tries]
            for number, (entry, group) in enumerate(zip(data["tries"], _same_as(report.tries, whys)), start=1):
                entry["why"] = str(whys[number - 1])
                if group != number:  # the first try with the same effect (issue 26: tries grouped)
                    entry["same_as"] = group
    if report.contains_intended is not None:
        data["intended_solution_found"] = report.contains_intended
    if report.stopped:
        data["stopped"] = report.stopped
    return data


def _cut(report: Report) -> str:
    """What the bound cut (solver.search.bound): plays proven to fail without being expanded or played out."""
    if not report.pruned and not report.ends_cut and not report.runs_cut and not report.uses_cut:
        return ""
    if report.runs_cut or report.uses_cut:  # cut before their states were made: not among the plays
        parts = [f"{count} {what}" for count, what in ((report.pruned, "plays"), (report.runs_cut, "placements"),
                                                        (report.uses_cut, "uses"), (report.ends_cut, "ends")) if count]
        listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
        return f", {listed} cut by the bound"
    ends = f" and {report.ends_cut} ends" if report.ends_cut else ""
    return f", {report.pruned}{ends} cut by the bound"


def verdict_line(report: Report) -> Text:
    if report.stopped:  # no verdict is proven: the plays found win, but more may
        text = Text("STOPPED", style="bold red")
        found = len(report.solutions)
        if not found:
            text.append(f" — not proven: no winning play found so far over {report.plays} plays, "
                        f"{report.positions} positions played out{_cut(report)}", style="dim")
            return text
        # Each play found wins whatever the opponent does (all its ends were played out): two of them make the
        # card cooked, whatever the rest of the search would have found.
        cooked = ", so the card is cooked" if found > 1 else ""
        text.append(f" — not proven complete: {found} winning play(s) found so far, each proven to win{cooked}; "
                    f"over {report.plays} plays, {report.positions} positions played out{_cut(report)}", style="dim")
        return text
    word, style = _VERDICT[report.verdict]
    text = Text(word, style=style)
    if report.verdict == "cooked":
        text.append(f" {len(report.solutions)}", style=style)
    text.append(f"  — proven over {report.plays} plays ({report.paths} action orders), "
                f"{report.positions} positions played out{_cut(report)}", style="dim")
    return text


def _principal_battles(end: Position, line: tuple[str, ...], battles: int) -> list[Tree]:
    """The traces of the battles that follow the key, along the choices of the principal variation."""
    traces = []
    current = end
    for number in range(1, battles + 1):
        outcomes = resolve(current, trace=True)
        chosen = next((o for o in outcomes if line[:len(o.choices)] == o.choices), outcomes[0])
        tree = render_outcome(chosen, 1, 1)
        if battles > 1:
            tree.label = Text(f"Battle {number} of {battles}", style="bold underline")
        traces.append(tree)
        line = line[len(chosen.choices):]
        current = chosen.position
    return traces


def _traced_end(puzzle: Puzzle, ends: frozenset[Position]) -> Position:
    """The end position whose trace a solution's panel shows: its only one, else (duals that differ in an idle
    facing, or an opponent's choice during the turn) the one where the first battle leaves the player worst off."""
    if len(ends) == 1:
        (end,) = ends
        return end
    ordered = sorted(ends, key=lambda p: sorted(str(u) for u in p.units))[:8]

    def worst(end: Position) -> tuple[int, ...]:
        margins = []
        for outcome in resolve(end):
            mine = outcome.hq.get(puzzle.player, 0)
            theirs = max((hp for army, hp in outcome.hq.items() if army != puzzle.player), default=0)
            margins.append(mine - theirs)
        return (min(margins, default=0),)

    return min(ordered, key=worst)


def _refuters(attempt_end: Position, player: str, line: tuple[str, ...]) -> list[str]:
    """Who refutes a try: the enemy units that hit the player's HQ, with the phase (issue 10)."""
    import re

    outcomes = resolve(attempt_end, trace=True)
    outcome = next((o for o in outcomes if line[:len(o.choices)] == o.choices), outcomes[0])
    hits = []
    pattern = re.compile(rf"^(.+?) hits {re.escape(player)}:hq on \S+ for (\d+) \((\w[\w -]*)\)")
    for event in outcome.trace:
        found = pattern.match(event.text) if event.phase is not None else None
        if found:
            hits.append(f"{found.group(1)} in initiative phase {event.phase} ({found.group(2)} {found.group(3)})")
    return hits


def _why_fails(puzzle: Puzzle, report: Report, attempt: Try) -> TryWhy:
    """A try's failure in its own terms (:func:`solver.search.idea.why_try_fails`): what it does, what the
    opponent does, which part of the goal it misses; against the first solution only what its own board lacks."""
    key = report.solutions[0] if report.solutions else None
    return why_try_fails(puzzle, attempt.actions, attempt.end, attempt.verdict.line, attempt.hq,
                         attempt.verdict.battles, key.actions if key else None, key.verdict.line if key else None)


def render_report(puzzle: Puzzle, report: Report, *, explain: bool = True, counters_only: bool = False,
                  shown: int | None = None) -> Group:
    """The report; ``shown`` limits the solution panels (the rest are listed one a line)."""
    parts: list[RenderableType] = [verdict_line(report)]
    if report.stopped:
        parts.append(Text(f"Stopped early: {report.stopped}.", style="bold red"))
    if report.contains_intended is not None:
        parts.append(Text("The card's solution is among the winning plays." if report.contains_intended
                          else "The card's solution is NOT among the winning plays.",
                          style="green" if report.contains_intended else "bold red"))
    drawn = report.solutions if shown is None else report.solutions[:shown]
    for number, solution in enumerate(drawn, start=1):
        body: list[RenderableType] = [Text("\n".join(solution.actions) or "(play no tile: the position already wins)",
                                           style="bold")]
        health = ", ".join(f"{army} {hp}" for army, hp in sorted(solution.hq.items()))
        body.append(Text(f"HQ health at worst for {puzzle.player}: {health}", style="yellow"))
        if solution.ends and solution.verdict.battles:
            # The key's own end (its line played out), not the worst of its duals' ends: a dual that stops short
            # of a free move is among the ends, and the idea is the key's.
            body.append(Text("Why it wins: " + str(why_wins(puzzle, solution.actions, None, solution.verdict.line)),
                             style="green"))
        if solution.duals:
            body.append(Text("Duals (same end position): " + " | ".join("; ".join(d) for d in solution.duals[:5])
                             + (" …" if len(solution.duals) > 5 else ""), style="dim"))
        if explain and solution.ends and solution.verdict.battles:
            end = _traced_end(puzzle, solution.ends)
            body += _principal_battles(end, solution.verdict.line, solution.verdict.battles)
        parts.append(Panel(Group(*body), title=f"Solution {number}", title_align="left"))
    rest = report.solutions[len(drawn):]
    if rest:
        listing = Text(f"Solutions {len(drawn) + 1} to {len(report.solutions)} (nhex solve --all draws each "
                       "one in full):", style="bold")
        for number, solution in enumerate(rest, start=len(drawn) + 1):
            health = ", ".join(f"{army} {hp}" for army, hp in sorted(solution.hq.items()))
            listing.append(f"\n{number:>4}. {'; '.join(solution.actions) or '(no tile)'}  ", style="")
            listing.append(f"[{health}]", style="dim")
        parts.append(listing)
    parts += _try_panels(puzzle, report)
    if not counters_only:
        parts.append(Text(f"{report.seconds:.2f} s", style="dim"))
    return Group(*parts)


def _same_as(tries: list[Try], whys: list[TryWhy]) -> list[int]:
    """For each try, the number (from 1) of the first try with the same effect: the same HQ health at the end,
    the same answer of the opponent and the same part of the goal missed (issue 26: "a1 N and a1 NE: the
    same")."""
    first: dict[tuple, int] = {}
    found = []
    for number, (attempt, why) in enumerate(zip(tries, whys), start=1):
        effect = (tuple(sorted(attempt.hq.items())), attempt.verdict.line, why.effect)
        found.append(first.setdefault(effect, number))
    return found


def _try_panels(puzzle: Puzzle, report: Report) -> list[Panel]:
    """One panel per try, tries with the same effect together: each try's actions and what they do, then what
    they share (HQ health, the refutation, which part of the goal is missed)."""
    whys = [] if puzzle.then == "nothing" else [_why_fails(puzzle, report, attempt) for attempt in report.tries]
    groups = _same_as(report.tries, whys) if whys else list(range(1, len(report.tries) + 1))
    panels = []
    for leader in dict.fromkeys(groups):
        members = [n for n, g in enumerate(groups, start=1) if g == leader]
        attempt, why = report.tries[leader - 1], whys[leader - 1] if whys else None
        health = ", ".join(f"{army} {hp}" for army, hp in sorted(attempt.hq.items()))
        body: list[RenderableType] = []
        if len(members) == 1:
            body.append(Text("\n".join(attempt.actions) or "(play no tile)", style="bold"))
        else:  # grouped tries have their words (whys): only tries with the same words share an effect
            # Tries whose actions do the same (only a bracketed detail differs) share one line.
            deeds: dict[str, list[int]] = {}
            for n in members:
                deeds.setdefault(whys[n - 1].brief, []).append(n)
            for brief, numbers in deeds.items():
                plays = [" and ".join(report.tries[n - 1].actions) or "(play no tile)" for n in numbers]
                line = Text(_listed_plays(plays), style="bold")
                line.append(f": the same: {brief}" if len(plays) > 1 else f": {whys[numbers[0] - 1].does}", style="")
                body.append(line)
        body.append(Text(f"fails: HQ health {health} (margin {attempt.verdict.margin:+d})", style="red"))
        if attempt.verdict.line:
            body.append(Text("refuted by: " + "; ".join(attempt.verdict.line), style="red"))
        if why is not None:
            said = str(why) if len(members) == 1 else " ".join(p for p in (why.against, why.missed) if p)
            body.append(Text("Why it fails: " + said, style="red"))
            refuters = _refuters(attempt.end, puzzle.player, attempt.verdict.line)
            if refuters:
                body.append(Text("the HQ is hit by: " + "; ".join(refuters), style="red"))
            (outcome, *_) = resolve(attempt.end, trace=True)
            last = [e for e in outcome.trace if e.kind in ("hq", "destroyed", "death", "medic", "netted")][-3:]
            for event in last:
                body.append(Text(f"  {event}", style="dim"))
        title = (f"Try {leader}" if len(members) == 1
                 else f"Tries {', '.join(map(str, members[:-1]))} and {members[-1]}: the same end")
        panels.append(Panel(Group(*body), title=title, title_align="left", border_style="red"))
    return panels


def _listed_plays(plays: list[str]) -> str:
    return plays[0] if len(plays) == 1 else ", ".join(plays[:-1]) + " and " + plays[-1]

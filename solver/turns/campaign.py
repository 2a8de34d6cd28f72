"""The Babel 13 campaign's bookkeeping between scenarios (B13 CAMPAIGN: THE BABEL 13 MISSION, SPECIAL CAMPAIGN
RULES; SCENARIO 2, Start): plain functions of the HQs' health, no game state.

Each scenario is an ordinary game (its terrain written with `terrain` lines, alliances with `team` lines, NOTATION
§10); what the book adds between scenarios is arithmetic on the HQs' Hit Points, kept here:

* the HQs start a scenario with the health they ended the previous one with;
* the winner of a scenario is the HQ that received fewer injuries *in that scenario*; it regains 3 Hit Points,
  never above 20; on a tie nobody regains anything and Neojungle counts as the winner;
* the total destruction of an HQ ends the campaign at once, won by the HQ still standing;
* Scenario 2: the previous winner takes as many free turns as the difference in injuries;
* the campaign is won by the HQ with the most Hit Points at the end.

Prize markers gained and not used are kept for the next scenario: they stay in ``Position.held_prizes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections import Counter
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from ..notation.cards import GameRecord
    from ..position import Unit

#: An HQ's Hit Points never exceed this (B13 SPECIAL CAMPAIGN RULES: "Headquarters cannot have more than 20").
MAX_HP = 20
#: What the winner of a scenario regains.
REGAINED = 3
#: Who counts as the winner of a tied scenario ("the scenario winner ... is considered to be Neojungle").
TIE_WINNER = "neojungle"


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The end of one scenario: who won it, the injuries each HQ received in it, and the health each HQ takes to
    the next scenario; ``campaign_over`` when an HQ was destroyed (``winner`` then wins the campaign)."""

    winner: str
    injuries: dict[str, int]
    next_hp: dict[str, int]
    tie: bool
    campaign_over: bool
    #: The HQs' health at the end of the scenario (before the winner regains anything).
    end_hp: dict[str, int] = field(default_factory=dict)


def scenario_result(start_hp: dict[str, int], end_hp: dict[str, int], tie_winner: str = TIE_WINNER) -> ScenarioResult:
    """The result of a two-sided scenario from its HQs' health at its start and at its end; ``tie_winner`` is the
    army a tie counts for (the scenario's ``victory fewer-injuries tie=``; Neojungle in the book's campaign)."""
    if set(start_hp) != set(end_hp) or len(start_hp) != 2:
        raise ValueError("a campaign scenario has two sides, each with an HQ at the start and at the end")
    injuries = {army: start_hp[army] - end_hp[army] for army in start_hp}
    destroyed = [army for army, hp in end_hp.items() if hp <= 0]
    if destroyed:
        standing = [army for army in end_hp if army not in destroyed]
        winner = standing[0] if standing else tie_winner
        return ScenarioResult(winner, injuries, dict(end_hp), not standing, True, dict(end_hp))
    first, second = sorted(injuries)
    if injuries[first] == injuries[second]:
        return ScenarioResult(tie_winner, injuries, dict(end_hp), True, False, dict(end_hp))
    winner = first if injuries[first] < injuries[second] else second
    next_hp = dict(end_hp)
    next_hp[winner] = min(MAX_HP, next_hp[winner] + REGAINED)
    return ScenarioResult(winner, injuries, next_hp, False, False, dict(end_hp))


def free_turns(result: ScenarioResult) -> int:
    """B13 SCENARIO 2, Start: the previous winner 'takes as many free turns as difference in injuries received
    by the two HQs in the previous scenario'."""
    first, second = result.injuries.values()
    return abs(first - second)


def campaign_winner(hp: dict[str, int]) -> str | None:
    """B13 VICTORY: 'The army whose Headquarters finishes with highest amount of Hit Points wins the campaign';
    None when they are equal (the book names no winner then)."""
    best = max(hp.values())
    leaders = [army for army, value in hp.items() if value == best]
    return leaders[0] if len(leaders) == 1 else None


# --- a campaign of game records (`nhex campaign FILE...`) ---------------------------------------------------------

CARRIED = ("B13 SPECIAL CAMPAIGN RULES: 'At the beginning of each later scenario the HQ have whatever Hit Points they "
           "had at the end of the previous scenario'; the winner 'regains 3 Hit Points ... (Headquarters cannot have "
           "more than 20 Hit Points)'")
PRIZES_KEPT = "B13 SPECIAL CAMPAIGN RULES: 'Prizes gained and not yet used are kept and usable in the next scenario'"
CAMPAIGN_END = ("B13 SPECIAL CAMPAIGN RULES: 'The total destruction of the opponent's HQ in any scenario means the end "
                "of the campaign'")


@dataclass(frozen=True)
class Played:
    """One scenario of a campaign as it was played: its file, the record's check, what the campaign filled in."""

    source: str
    name: str | None
    title: str | None
    start_hp: dict[str, int]
    result: ScenarioResult | None
    report: object  # solver.turns.game.CheckReport
    filled: tuple[str, ...] = ()  # the lines the campaign supplied (start-hp, free-turns ...)
    radio: tuple[str, str | None] | None = None  # (marker, army holding it at the end or None)
    recovered: tuple[tuple[str, int], ...] = ()  # Hit Points regained at the start (SCENARIO 4)


@dataclass(frozen=True)
class CampaignFault:
    """Why the campaign stops: at ``source``:``line``, the ``what`` that breaks ``rule`` (``verdict`` as in
    ``nhex check``: illegal, wrong, undecidable, unsupported)."""

    source: str
    line: int
    what: str
    rule: str
    verdict: str = "illegal"


@dataclass(frozen=True)
class CampaignReport:
    played: tuple[Played, ...]
    fault: CampaignFault | None = None
    hp: dict[str, int] | None = None
    winner: str | None = None
    why: str = ""
    #: Whether the last scenario's winner regained its 3 Hit Points (option campaign-regain-last).
    regain_last: bool = False

    @property
    def ok(self) -> bool:
        return self.fault is None


def play(records: Sequence[tuple[str, GameRecord]]) -> CampaignReport:
    """Check game records of a campaign's scenarios in order, carrying the HQs' Hit Points (and the previous result
    the book's scenarios depend on) from one to the next, and name the campaign's winner (B13 VICTORY)."""
    from dataclasses import replace

    from . import game
    from ..notation import scenarios
    from ..errors import NotationError, RuleNotImplemented

    played: list[Played] = []
    carried: dict[str, int] | None = None
    previous: ScenarioResult | None = None
    radio: tuple[str, str | None] | None = None
    kept: dict[str, tuple[str, ...]] = {}
    rules = None
    tie_army = TIE_WINNER
    #: Allied units that survived, by (commanding army, army of the tiles): tile keys, from the scenarios that had them.
    survived: dict[tuple[str, str], Counter[str]] = {}
    for source, record in records:
        position = record.position
        rules = position.rules
        written = position.scenario or scenarios.Scenario()
        scenario = scenarios.effective(written) or scenarios.Scenario()
        armies = tuple(dict.fromkeys(record.players))
        if previous is not None and previous.campaign_over:
            return CampaignReport(tuple(played), CampaignFault(source, 1, "game", f"the campaign is over: an HQ was "
                                                               f"destroyed in the previous scenario ({CAMPAIGN_END})"))
        if carried is not None and set(armies) != set(carried):
            return CampaignReport(tuple(played), CampaignFault(source, 1, "players", f"the campaign's sides are "
                                                               f"{' and '.join(carried)}, not {' and '.join(armies)}"))
        filled: list[str] = []
        changes: dict = {}
        if carried is not None:
            start = dict(carried)
            for army, hp in scenario.recover:  # SCENARIO 4: "Neojungle HQ recovers 4 Hit Points"
                start[army] = min(MAX_HP, start[army] + hp)
            for army in armies:
                hq = position.hq(army)
                if hq is not None and hq.hp != start[army]:
                    where = position.location(f"unit {hq.hex.label}")
                    return CampaignReport(tuple(played), CampaignFault(
                        source, where.line if where else 1, str(hq),
                        f"{army}'s HQ starts this scenario with {start[army]} Hit Points, not {hq.hp} ({CARRIED})"))
                stated = scenario.hp_at_start(army)
                if stated is None:
                    filled.append(f"start-hp {army} {start[army]}")
                elif stated != start[army]:
                    where = position.location(f"start-hp {army}")
                    recovered = next((f" and recovers {hp} ({scenarios.source(scenario, 'Start')})"
                                      for a, hp in scenario.recover if a == army), "")
                    return CampaignReport(tuple(played), CampaignFault(
                        source, where.line if where else 1, f"start-hp {army} {stated}",
                        f"{army}'s HQ starts this scenario with {start[army]} Hit Points: it ended the previous one "
                        f"with {previous.end_hp[army] if previous else '?'}{' and regains 3' if previous and previous.winner == army and not previous.tie else ''}{recovered} ({CARRIED})"))
            changes["start_hp"] = tuple((a, start[a]) for a in armies)
        if previous is not None:
            first = scenario.first_player
            if first == scenarios.PREVIOUS_WINNER:
                changes["first_player"] = previous.winner
            if scenario.free_turns is not None:
                who, count = scenario.free_turns
                due = (previous.winner, free_turns(previous))
                if written.free_turns is not None and (who not in (scenarios.PREVIOUS_WINNER, due[0])
                                                       or count not in (None, due[1])):
                    where = position.location("free-turns")
                    return CampaignReport(tuple(played), CampaignFault(
                        source, where.line if where else 1, f"free-turns {who} {count}",
                        f"{due[0]} won the previous scenario and takes {due[1]} free turn{'s' if due[1] != 1 else ''} "
                        f"(B13 SCENARIO 2: STEEL CONVOY, Start: 'takes as many free turns as difference in injuries "
                        "received by the two HQs in the previous scenario')"))
                if (who, count) != due:
                    filled.append(f"free-turns {due[0]} {due[1]}")
                changes["free_turns"] = due
        if radio is not None and scenario.reinforcements:
            marker, holder = radio
            lines: list[tuple[str, str, int, str | None]] = []
            for who, ally, most, condition in scenario.reinforcements:
                if condition is not None:
                    holds = (holder == who) if condition == "captured" else (holder is None or holder == who)
                    lines.append((who, ally, most if holds else 0, condition))
                else:
                    lines.append((who, ally, most, condition))
            changes["reinforcements"] = tuple(lines)
        # SCENARIO 2: "The surviving Allied units will appear in Scenarios 4 and 5"; SCENARIO 5: "any Moloch units
        # surviving from previous scenarios": no more of them than survived (known once a scenario had them).
        at_start = _allies(position.units)
        for pair in scenario.survivors:
            if pair not in survived:
                continue
            extra = at_start.get(pair, Counter()) - survived[pair]
            if extra:
                who, ally = pair
                unit = next(u for u in position.units if u.owner == who and u.tile.key in extra)
                where = position.location(f"unit {unit.hex.label}")
                return CampaignReport(tuple(played), CampaignFault(
                    source, where.line if where else 1, str(unit),
                    f"{', '.join(sorted(extra.elements()))}: more {ally} units under {who}'s command than survived the "
                    f"previous scenarios ({', '.join(sorted(survived[pair].elements())) or 'none'}) "
                    f"({scenarios.source(scenario)}: 'surviving from previous scenarios')"))
        # Prize markers gained and not used come with the army into the next scenario.
        for army, names in kept.items():
            now = dict(position.held_prizes).get(army, ())
            missing = [n for n in names if names.count(n) > now.count(n)]
            if missing:
                where = position.location(f"prizes {army}")
                return CampaignReport(tuple(played), CampaignFault(
                    source, where.line if where else 1, f"prizes {army}",
                    f"{army} holds {', '.join(dict.fromkeys(missing))} from the previous scenario ({PRIZES_KEPT})"))
        if changes:
            merged = replace(scenario, **changes)
            position = replace(position, scenario=merged)
            record = replace(record, position=position)
        try:
            report = game.check(record)
        except RuleNotImplemented as error:  # exit 4 at this file's line
            error.source = error.source or source
            raise
        except ValueError as error:  # a start position that does not fit its players: bad input in this file
            if isinstance(error, NotationError):
                raise
            raise NotationError(str(error), 1, 1, source) from None
        start_hp = dict(report.state.start_hp) if report.state.start_hp else {a: 20 for a in armies}
        if not report.ok:
            fault = CampaignFault(source, report.line or 0, report.action or "", report.problem or "", report.verdict)
            played.append(Played(source, scenario.name, scenario.title, start_hp, None, report, tuple(filled)))
            return CampaignReport(tuple(played), fault)
        state = report.state
        if state.result is None:
            played.append(Played(source, scenario.name, scenario.title, start_hp, None, report, tuple(filled)))
            return CampaignReport(tuple(played), CampaignFault(
                source, 0, "game", f"the scenario is not over (turn {state.turn} is {state.to_move}'s): a campaign goes "
                "on from the end of each scenario", "illegal"))
        result = scenario_result(start_hp, state.hq, scenario.tie or TIE_WINNER)
        held = dict(state.position.held_prizes)
        if scenario.radio is not None:
            holder = next((army for army, names in held.items() if scenario.radio in names), None)
            radio = (scenario.radio, holder)
        kept = {army: tuple(n for n in names if n != (radio[0] if radio else None)) for army, names in held.items()}
        kept = {army: names for army, names in kept.items() if names}
        played.append(Played(source, scenario.name, scenario.title, start_hp, result, report, tuple(filled),
                             (scenario.radio, radio[1]) if scenario.radio is not None and radio else None,
                             scenario.recover if carried is not None else ()))
        at_end = _allies(state.position.units)
        for pair in set(at_start) | set(at_end) | {(who, ally) for who, ally, _, _ in scenario.reinforcements}:
            survived[pair] = (survived.get(pair, Counter()) - at_start.get(pair, Counter())) + at_end.get(pair, Counter())
        previous, tie_army = result, scenario.tie or TIE_WINNER
        carried = dict(result.next_hp)
    assert previous is not None and rules is not None
    if previous.campaign_over:
        return CampaignReport(tuple(played), None, dict(previous.end_hp), previous.winner, CAMPAIGN_END)
    final = dict(previous.next_hp) if rules.enabled("campaign-regain-last") else dict(previous.end_hp)
    winner = campaign_winner(final)
    why = "B13 VICTORY: 'The army whose Headquarters finishes with highest amount of Hit Points wins the campaign'"
    if winner is None and rules.option("campaign-tie") == "scenario-tie":
        winner = tie_army
        why += f"; equal Hit Points: {winner}, as a tied scenario (option campaign-tie)"
    elif winner is None:
        why += "; equal Hit Points: nobody wins (option campaign-tie)"
    return CampaignReport(tuple(played), None, final, winner, why, rules.enabled("campaign-regain-last"))


def _allies(units: Iterable[Unit]) -> dict[tuple[str, str], Counter[str]]:
    """The allied units (another army's tiles under a player's command, ``owner=``), by (commander, army)."""
    found: dict[tuple[str, str], Counter[str]] = {}
    for unit in units:
        if unit.owner and unit.tile.army != unit.owner:
            found.setdefault((unit.owner, unit.tile.army), Counter())[unit.tile.key] += 1
    return found


def summary(report: CampaignReport) -> str:
    """What `nhex campaign` prints: each scenario's HQs, injuries and winner, then the campaign's."""
    lines = [f"campaign: {len(report.played)} scenario{'s' if len(report.played) != 1 else ''}"]
    for number, played in enumerate(report.played, start=1):
        name = " ".join(x for x in (played.name, played.title) if x) or "a scenario"
        lines.append(f"{number}. {played.source}: {name}")
        if played.filled:
            lines.append(f"   from the previous scenario: {'; '.join(played.filled)}")
        for army, hp in played.recovered:
            lines.append(f"   {army}'s HQ recovers {hp} Hit Points at the start, up to 20 (B13 SCENARIO 4, Start)")
        result = played.result
        if result is None:
            continue
        lines.append("   hq: " + ", ".join(f"{a} {played.start_hp[a]} -> {result.end_hp[a]}" for a in played.start_hp))
        told = ", ".join(f"{a} {n}" for a, n in result.injuries.items())
        if result.campaign_over:
            lines.append(f"   an HQ is destroyed: {result.winner} wins the campaign ({CAMPAIGN_END})")
        elif result.tie:
            lines.append(f"   injuries: {told}: a tie, {result.winner} counts as the winner and nobody regains Hit "
                         "Points (B13 SPECIAL CAMPAIGN RULES)")
        elif number == len(report.played) and report.fault is None and not report.regain_last:
            lines.append(f"   injuries: {told}: {result.winner} wins the scenario; the campaign ends, so it regains "
                         "nothing (B13 SPECIAL CAMPAIGN RULES: 'before starting the next scenario'; option "
                         "campaign-regain-last)")
        else:
            lines.append(f"   injuries: {told}: {result.winner} wins the scenario and regains 3 Hit Points, up to 20 "
                         "(B13 SPECIAL CAMPAIGN RULES)")
        if played.radio is not None:
            marker, holder = played.radio
            lines.append(f"   the radio ({marker}): " + (f"captured by {holder}" if holder else "not captured"))
    if report.fault is None and report.hp is not None:
        lines.append("hq: " + ", ".join(f"{a} {hp}" for a, hp in report.hp.items()))
        lines.append(f"campaign winner: {report.winner} ({report.why})" if report.winner else
                     f"campaign: nobody wins ({report.why})")
    return "\n".join(lines)


def report_json(report: CampaignReport) -> dict:
    """`nhex campaign --json` (README, notation extensions)."""
    data: dict = {"verdict": "legal" if report.ok else report.fault.verdict, "scenarios": []}  # type: ignore[union-attr]
    for played in report.played:
        entry: dict = {"file": played.source, "scenario": played.name, "start_hp": played.start_hp,
                       "filled": list(played.filled)}
        if played.result is not None:
            result = played.result
            entry |= {"end_hp": result.end_hp, "injuries": result.injuries, "winner": result.winner, "tie": result.tie,
                      "next_hp": result.next_hp, "campaign_over": result.campaign_over}
        if played.radio is not None:
            entry["radio"] = {"marker": played.radio[0], "captured_by": played.radio[1]}
        data["scenarios"].append(entry)
    if report.fault is not None:
        fault = report.fault
        data |= {"file": fault.source, "line": fault.line, "action": fault.what, "rule": fault.rule}
    else:
        data |= {"hq": report.hp, "winner": report.winner}
    return data

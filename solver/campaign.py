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

from dataclasses import dataclass

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


def scenario_result(start_hp: dict[str, int], end_hp: dict[str, int]) -> ScenarioResult:
    """The result of a two-sided scenario from its HQs' health at its start and at its end."""
    if set(start_hp) != set(end_hp) or len(start_hp) != 2:
        raise ValueError("a campaign scenario has two sides, each with an HQ at the start and at the end")
    injuries = {army: start_hp[army] - end_hp[army] for army in start_hp}
    destroyed = [army for army, hp in end_hp.items() if hp <= 0]
    if destroyed:
        standing = [army for army in end_hp if army not in destroyed]
        winner = standing[0] if standing else TIE_WINNER
        return ScenarioResult(winner, injuries, dict(end_hp), not standing, True)
    first, second = sorted(injuries)
    if injuries[first] == injuries[second]:
        return ScenarioResult(TIE_WINNER, injuries, dict(end_hp), True, False)
    winner = first if injuries[first] < injuries[second] else second
    next_hp = dict(end_hp)
    next_hp[winner] = min(MAX_HP, next_hp[winner] + REGAINED)
    return ScenarioResult(winner, injuries, next_hp, False, False)


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

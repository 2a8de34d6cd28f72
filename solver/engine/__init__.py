"""The battle engine: one loop that names the points where ability families act (:mod:`.points`).

- :mod:`.battle`: the battle, phase by phase, with and without player choices;
- :mod:`.effects`: what a position gives each unit before it acts (nets, links, bonuses, control);
- :mod:`.fight`: the hits and strikes a battle deals;
- :mod:`.explain`: where each bonus of the trace comes from;
- :mod:`.features`: which rules of the notation's additions a position or record uses;
- :mod:`.points`: the named points and the :class:`~.points.Ability` base class of every family.
"""

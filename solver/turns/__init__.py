"""Between battles: the turn rules and whole games.

- :mod:`.actions`: the legal actions of the side to move, and what each does to the position;
- :mod:`.game`: a game record replayed and checked turn by turn;
- :mod:`.hiring` and :mod:`.mercenaries`: the Mad Bomber and the mercenaries drawn and hired;
- :mod:`.campaign`: Babel 13's campaign (its scenarios are read and applied by :mod:`solver.notation.scenarios`).
"""

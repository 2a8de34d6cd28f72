"""Solving and composing puzzle cards.

- :mod:`.solve`: the search of a card's plays, their battles and the verdict;
- :mod:`.idea`: why a solution wins and why a try fails, in words;
- :mod:`.generate` and :mod:`.card_words`: composing new cards with exactly one solution, and their text;
- :mod:`.batch` and :mod:`.dispatch`: many cards at once, on local workers or a Dask cluster.
"""

"""Imported once by the fork server of the job processes (solver/web/jobs.py), so that every job starts warm.

A job's process is forked from the fork server: whatever the server has loaded, a job has for free. Importing the
engine is not enough: the army database, the notation's parser tables and the engine's per-tile tables are built on
first use (about 0.6 s), so this module answers one battle of a bundled card at import, which builds them all.
"""

from __future__ import annotations

from . import work

#: A small position that exercises the reader, the army database, the battle and the JSON writer.
WARM_UP = b"c1 moloch:hq hp=4\nc4 outpost:hq\nc2 outpost:commando N\nc3 moloch:net-fighter S\n"

work.answer("battle", WARM_UP, {"trace": True})
work.answer("moves", WARM_UP + b"to-move outpost\nhand outpost outpost:sniper\n", {})

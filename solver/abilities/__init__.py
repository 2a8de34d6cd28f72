"""The ability families: one module each, plugged into the named points of the loops.

Each module here holds one family (the Clown's explosion, the Gauss beam, control takeover, redirection, long
links, venom, the Motherland, foundations, terrain, …): a subclass of :class:`solver.engine.points.Ability` that
overrides the points where its rule acts. The battle (:mod:`solver.engine.battle`), the reading of a position
(:mod:`solver.engine.effects`) and the turn rules (:mod:`solver.turns.actions`) find the families by looking in
this package (:func:`solver.engine.points.families`); none of them imports a family. Adding an army adds its army
file and, where its rules are new, a module here.
"""

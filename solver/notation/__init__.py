"""The notation layer: text → values, with every mistake located, and values → canonical text.

- :mod:`.text`: the reader and writer of positions, cards and records (NOTATION §1-9);
- :mod:`.additions`: the v1.1 additions (NOTATION §10: Duel board, Babel 13, the Mad Bomber, multiplayer);
- :mod:`.cards`: puzzle cards and game records, the values a card or a record adds to a position;
- :mod:`.scenarios`: Babel 13's scenario statements, read, written and applied (the rules they add are values'
  functions, called by the turn rules);
- :mod:`._parser` and :mod:`._parser_tables`: Lark's stand-alone LALR parser of ``grammar/position.lark``, generated
  by :mod:`.make_parser`.
"""

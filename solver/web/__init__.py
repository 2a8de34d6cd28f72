"""``nhex serve``: the engine in a browser (issue 28).

``app.py`` builds the Starlette application and runs it on uvicorn; ``api.py`` answers the HTTP API (the same JSON as
the command line's ``--json``); ``jobs.py`` runs each battle, listing, check and solve in a process of its own, with
a hard time limit and a cap on how many run at once; ``work.py`` is what those processes run; ``board.py`` draws
the board for the page with what the card pictures draw (solver/render/card_svg.py); ``static/`` is the page.

The web layer stands beside the command line in the interface layer: it runs the command line's own handlers, so
its JSON is the command line's by construction (tests/test_layers.py).
"""

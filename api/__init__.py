"""boardrule: a rules-agnostic engine for grid board games.

This folder (api/) is installed as the `boardrule` package itself; the code
lives in the sibling folders dsl/, interpreter/, cli/ and rulepacks/,
installed as boardrule.dsl, boardrule.interpreter, boardrule.cli and
boardrule.rulepacks. The front door for programs is
`boardrule.interpreter.api`:

    from boardrule.interpreter.api import open_game, new_game, legal_moves, apply
"""

__version__ = "0.1.0"

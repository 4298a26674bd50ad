"""boardrule: a rules-agnostic engine for grid board games.

The code lives in the top-level folders dsl/, interpreter/, cli/ and
rulepacks/, installed as boardrule.dsl, boardrule.interpreter, ...
"""

__version__ = "0.1.0"

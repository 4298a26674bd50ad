"""The JSON Schema (draft-07) of a pack's YAML layer, shipped with the package.

    >>> load_schema()["$schema"]
    'http://json-schema.org/draft-07/schema#'

Editors that speak the YAML language server complete and flag a pack whose
first line is ``# yaml-language-server: $schema=pack.schema.json`` (write the
file with ``boardrule schema -o pack.schema.json``). The schema covers the
YAML structure only; `boardrule check` checks the rules written inside.
"""

from __future__ import annotations

import importlib.resources
import json

SCHEMA_FILE = "pack.schema.json"


def schema_text() -> str:
    """The schema as JSON text."""
    return importlib.resources.files(__name__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def load_schema() -> dict:
    """The schema as a dict."""
    return json.loads(schema_text())

"""Helpers shared by commands: open a game, score a position file."""

from __future__ import annotations

from boardrule.interpreter import api


def load_game(name_or_path):
    return api.open_game(name_or_path)


def score_position(game, path, players, options) -> dict:
    state = api.load_position(game, path, players, options)
    return api.score_report(game, state)

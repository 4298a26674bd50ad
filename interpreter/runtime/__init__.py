"""The runtime: states, the flow of a game, moves, boards and shapes, scoring, views."""

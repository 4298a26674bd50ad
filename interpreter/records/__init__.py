"""Records of games: saves and logs, positions, the timeline of undo and redo."""

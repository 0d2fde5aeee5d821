"""The game: grid geometry, boards, the region graph, the rules engine and move notation."""

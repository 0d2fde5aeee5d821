"""Pictures of boards: the terminal view, SVG/PNG/GIF rendering and their layout."""

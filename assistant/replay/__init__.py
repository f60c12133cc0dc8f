"""Battle replay from footage: timeline, reconstruction, offline viewer, annotated video."""

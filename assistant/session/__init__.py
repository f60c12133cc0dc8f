"""The live session: the table as the camera sees it, reconciled with the engine's game."""

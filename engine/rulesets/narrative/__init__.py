"""Seed 000, the Solo Narrative Minis Ruleset (RULES §2), and the playing-card AI on its table:
the ruleset class in :mod:`.ruleset` (registered as ``narrative``), its state, board, order of
play, legality, resolution, sample of legal actions, AI searches, the stalemate rule, and the
card AI's cards, events and run for cover.
"""

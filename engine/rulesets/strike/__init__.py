"""The strike system of "Wargame (Version 4)" (RULES §3.1): the ruleset class in :mod:`.ruleset`
(registered as ``strike``), its state, board, legality, the Oracle phase and its exact odds,
sample of legal actions, set-up and victory.
"""

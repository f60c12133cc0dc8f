"""firefight-lite, the square-grid skirmish host of the playing-card AI (RULES §4, D002-01): the
ruleset class in :mod:`.ruleset` (registered as ``firefight-lite``), its state, board, deck,
turn sequence, legality, combat, reactions, random events and arrivals, sample of legal actions
and set-up.
"""

"""The grid game of seed 004 and its Dungeon Crawl (RULES §6): the ruleset class in :mod:`.ruleset`
(registered as ``dungeon``), its state, unit cards, board, the order of play with what each
action does (:mod:`.sequence`), legality, combat, resolution, sample of legal actions, set-up,
the table queries and the searches its controllers share (:mod:`.tactics`).
"""

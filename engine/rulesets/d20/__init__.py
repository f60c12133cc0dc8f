"""The d20 solitaire rules (seed 003, RULES §5): the ruleset class in :mod:`.ruleset` (registered
as ``d20``), its tables, cards and state, board, the start of a round (:mod:`.sequence`),
combat, the chain of a multi-figure unit, resolution, victory and each generic scenario's own
end, sample of legal actions, set-up and the table queries.
"""

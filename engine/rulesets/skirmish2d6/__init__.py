"""The 2D6 skirmish with roles and weapons (RULES §3.2, seed 001 part B): the ruleset class in
:mod:`.ruleset` (registered as ``skirmish2d6``), its state, board (on the open-table kit
:mod:`engine.boards.open`), the 2D6 checks and their odds, fighters and warband files, legality,
combat, resolution and the table queries.
"""

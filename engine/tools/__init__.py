"""Narrative tools of the solitaire systems: rolls a player asks for outside the rules of combat.

Seed 003 (RULES §5.b): the what-happens-next oracle, the yes/no question and the secret roll,
in :mod:`engine.tools.oracle`.
"""

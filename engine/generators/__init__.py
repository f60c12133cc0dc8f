"""Generators that roll a table or a battle from a random source (seed 003 §5.m, §5.n).

Each is a pure function of a :class:`engine.dice.RandomSource` and its options: the same
dice give the same result, and every roll is logged with its purpose.
"""

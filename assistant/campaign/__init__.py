"""Campaigns (issue 16): a roster tied to each miniature's tag, wounds carried between battles
(RULES §2.n, D000-13 options A and B), battles chained by outcome and flags, kept in SQLite.

- ``model``: the campaign file (TOML, validated like scenarios) and the scenario graph;
- ``files``: bundled campaigns and loading a file with its battles' scenarios;
- ``seating``: the roster put into a scenario (names, cards, tags, starting wounds, briefing);
- ``store``: the SQLite store (WAL, one transaction per change, schema version, migrations);
- ``battle``: the next battle prepared, simulated, and its result read off the final state;
- ``wounds``: post-battle wound resolution;
- ``view``: what ``campaign show`` and the campaign page show.
"""

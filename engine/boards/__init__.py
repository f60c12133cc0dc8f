"""Board kits: the mechanics the rule systems share, with their differences as policies
(``grid``: square-grid games)."""

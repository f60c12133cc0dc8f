"""Rulesets, one module each (a system split past ~400 lines keeps its parts beside it).

Each system's module ends with its ``register_ruleset(...)`` line, and is listed in
:data:`engine.catalogue.BUILTIN_RULESETS`, which imports it when the system is first asked for:
this package imports none of them, so loading one system does not load all six.
"""

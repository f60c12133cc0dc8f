"""Rulesets, one package each (``engine.rulesets.<name>``), its modules named by concept alike
in every system: ``ruleset`` (the class), ``state``, ``board``, ``sequence``, ``legality``,
``resolve``, ``sample``, ``setup``, and the concepts a system has (``combat``, ``victory``...).

Each system's ``ruleset`` module ends with its ``register_ruleset(...)`` line, and is listed in
:data:`engine.catalogue.BUILTIN_RULESETS`, which imports it when the system is first asked for:
this package imports none of them, so loading one system does not load all six.
"""

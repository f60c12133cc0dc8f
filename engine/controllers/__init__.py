"""Controllers (AI generals and the autopilot), one module each, registered by name.

Each is listed in :data:`engine.catalogue.BUILTIN_CONTROLLERS`, which imports its module when it
is first asked for: this package imports none of them.
"""

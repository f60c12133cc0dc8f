"""Everything that ties pixels to the table: lens intrinsics, the table mapping from the
corner tags, tag-height planes, drift checks, saved profiles and the printable kit.

Imports nothing from ``engine`` or ``assistant``.
"""

"""The game: rules, AI controllers, geometry and dice, in inches and degrees.

This package has no camera, no clock and no file or network I/O, and imports nothing
from the other soloscope packages.
"""

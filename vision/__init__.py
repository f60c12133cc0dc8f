"""Frames to board observations: sources, the tag detector, the tracker and the synthetic table.

May import ``calibration``; knows nothing of rules. No display, progress bar or file writing
inside the detector and tracker.
"""

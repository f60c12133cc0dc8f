"""The dice reader's trained nets (ONNX) and their settings, written by
``python -m vision.dice.train``; read by :mod:`vision.dice.net`."""

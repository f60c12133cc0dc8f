"""The face reader's fine-tuning samples (``python -m vision.dice.train --part faces-tune``):
crops cut where the finder placed its spots, labelled by the die each lies on; the harder
degradation keeps a crop's size and what it shows; the committed face reader rebuilt for
PyTorch computes what its export does."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import net
from vision.dice.net import CROP_PX, Spot
from vision.dice.train.data import NO_VALUE, Picture, degrade, reader_samples
from vision.dice.train.synth import SynthDie


def _picture() -> Picture:
    image = np.full((120, 200, 3), 90, np.uint8)
    cv2.rectangle(image, (20, 20), (49, 49), (240, 240, 240), -1)
    cv2.rectangle(image, (120, 20), (149, 49), (240, 240, 240), -1)
    dice = (
        SynthDie(34.5, 34.5, 30.0, 3, False, ()),
        SynthDie(134.5, 34.5, 30.0, NO_VALUE, False, ()),
    )
    return Picture(image, dice, sizes_known=False)


def test_reader_samples_are_labelled_by_the_die_under_each_spot() -> None:
    spots = [
        Spot(36.0, 33.0, 28.0, 0.9),  # on the three
        Spot(134.0, 35.0, 30.0, 0.8),  # on the die of unknown value: left out
        Spot(100.0, 100.0, 30.0, 0.5),  # on no die
        Spot(34.5 + 20.0, 34.5, 30.0, 0.4),  # on the three's edge: neither
    ]
    xs, ys = reader_samples(np.random.default_rng(0), _picture(), spots, repeats=8)
    assert ys == [3] * 8 + [0] * 2
    assert all(x.shape == (CROP_PX, CROP_PX, 3) and x.dtype == np.uint8 for x in xs)
    # the die's crop shows the light die in its middle, the other the grey table
    assert xs[0][12:20, 12:20].mean() > 150 and xs[-1][12:20, 12:20].mean() < 150


def test_the_strong_degradation_keeps_the_crop() -> None:
    rng = np.random.default_rng(3)
    c = np.full((CROP_PX, CROP_PX, 3), 230, np.uint8)
    cv2.circle(c, (16, 16), 4, (20, 20, 20), -1)
    for _ in range(40):
        d = degrade(rng, c, strong=True)
        assert d.shape == c.shape and d.dtype == np.uint8
        assert d[14:18, 14:18].mean() < d[2:6, 2:6].mean()  # the pip stays darker than its face


def test_the_face_reader_rebuilt_from_its_export_reads_as_the_export() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is installed by make train-dice only")
    pytest.importorskip("onnx", reason="onnx is installed by make train-dice only")
    from vision.dice.train.fit import faces_from_onnx

    x = np.random.default_rng(1).integers(0, 256, (6, CROP_PX, CROP_PX, 3)).astype(np.uint8)
    blob = net.to_blob(x)
    with torch.no_grad():
        mine = faces_from_onnx(net.FACES_FILE)(torch.from_numpy(blob)).numpy()
    export = cv2.dnn.readNetFromONNX(str(net.FACES_FILE))
    export.setInput(blob)
    assert np.allclose(mine, export.forward(), atol=1e-4)

"""The dice networks in PyTorch, their training loops and the ONNX export. Only the training script imports this module (PyTorch is no runtime dependency)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from calibration.safe_files import atomic_path
from vision.dice.net import CLASSES, CROP_PX, FACES_FILE, FINDER_FILE

THREADS = 2


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FaceNet(nn.Module):
    """The face reader: a 32 px crop to 8 logits (:data:`vision.dice.net.CLASSES`)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 24),
            nn.MaxPool2d(2),
            _block(24, 48),
            _block(48, 48),
            nn.MaxPool2d(2),
            _block(48, 96),
            _block(96, 96),
            nn.MaxPool2d(2),
            _block(96, 96),
        )
        self.head = nn.Sequential(nn.Dropout(0.3), nn.Linear(96, len(CLASSES)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).mean(dim=(2, 3))
        return self.head(f)


class FinderNet(nn.Module):
    """The finder: a picture to a heat-map logit and a log side per 4 x 4 pixels."""

    def __init__(self) -> None:
        super().__init__()
        self.e1 = _block(3, 12, 2)
        self.e2 = nn.Sequential(_block(12, 24, 2), _block(24, 24))
        self.e3 = nn.Sequential(_block(24, 32, 2), _block(32, 32))
        self.e4 = nn.Sequential(_block(32, 48, 2), _block(48, 48, dilation=2))
        self.lat4 = nn.Conv2d(24, 16, 1)
        self.lat8 = nn.Conv2d(32, 16, 1)
        self.top = nn.Conv2d(48, 16, 1)
        self.d8 = _block(16, 16)
        self.d4 = _block(16, 16)
        self.out = nn.Conv2d(16, 2, 1)
        nn.init.constant_(self.out.bias, 0.0)
        with torch.no_grad():
            self.out.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.e2(self.e1(x))
        f8 = self.e3(f4)
        f16 = self.e4(f8)
        u = F.interpolate(self.top(f16), scale_factor=2.0, mode="nearest") + self.lat8(f8)
        u = self.d8(u)
        u = F.interpolate(u, scale_factor=2.0, mode="nearest") + self.lat4(f4)
        return self.out(self.d4(u))


def _blob(x: np.ndarray) -> torch.Tensor:
    t = torch.from_numpy(x).float().permute(0, 3, 1, 2)
    return (t - 127.5) / 64.0


def _colour_jitter(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Per picture: swap colour channels, grey now and then, light and contrast."""
    n = x.shape[0]
    perms = torch.stack([torch.randperm(3, generator=g) for _ in range(n)])
    x = torch.gather(x, 1, perms[:, :, None, None].expand_as(x))
    grey = torch.rand(n, generator=g) < 0.15
    x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    gain = torch.exp(torch.randn(n, 1, 1, 1, generator=g) * 0.2)
    shift = torch.randn(n, 1, 1, 1, generator=g) * 0.2
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    return (x - mean) * gain + mean + shift


def _turn(x: torch.Tensor, k: int, flip: bool) -> torch.Tensor:
    x = torch.rot90(x, k, dims=(-2, -1))
    return torch.flip(x, dims=(-1,)) if flip else x


def _optimiser(
    net: nn.Module, lr: float, steps: int
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler]:
    """AdamW with a one-cycle schedule peaking at ``lr`` over ``steps``."""
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    return opt, sched


def _train_mode(net: nn.Module, keep_norm: bool) -> None:
    """The net in training mode; with ``keep_norm`` (fine-tuning) its normalisation stays as
    it was learned."""
    net.train()
    if keep_norm:
        for m in net.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()


def faces_from_onnx(path: Path) -> FaceNet:
    """The face reader rebuilt from its ONNX export (whose convolutions carry their batch
    normalisation folded in): each normalisation left as the identity plus the folded bias, so
    the net computes what the export does; to fine-tune with the normalisation kept."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    net = FaceNet()
    blocks = [m for m in net.features if isinstance(m, nn.Sequential)]
    if len(blocks) != len(convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, the face reader {len(blocks)}")
    with torch.no_grad():
        for block, node in zip(blocks, convs, strict=True):
            conv, norm = block[0], block[1]
            assert isinstance(conv, nn.Conv2d) and isinstance(norm, nn.BatchNorm2d)
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        head = net.head[1]
        assert isinstance(head, nn.Linear)
        head.weight.copy_(torch.from_numpy(weights["head.1.weight"].copy()))
        head.bias.copy_(torch.from_numpy(weights["head.1.bias"].copy()))
    net.eval()
    return net


def train_faces(
    x: np.ndarray,
    y: np.ndarray,
    epochs: int,
    seed: int,
    log: Callable[[str], None],
    warm: FaceNet | None = None,
) -> FaceNet:
    """Train the face reader on crops ``x`` (N, 32, 32, 3 BGR) labelled ``y``: from scratch,
    or from ``warm`` (fine-tuning: a lower rate, its normalisation kept as it is)."""
    torch.manual_seed(seed)
    torch.set_num_threads(THREADS)
    g = torch.Generator().manual_seed(seed)
    net = FaceNet() if warm is None else warm
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    batch = 128
    lr = 3e-3 if warm is None else 6e-4
    opt, sched = _optimiser(net, lr, epochs * math.ceil(len(yt) / batch))
    for epoch in range(epochs):
        _train_mode(net, keep_norm=warm is not None)
        order = torch.randperm(len(yt), generator=g)
        total, right, seen = 0.0, 0, 0
        for k in range(0, len(yt), batch):
            idx = order[k : k + batch]
            xb = _blob(xt[idx].numpy())
            xb = _turn(
                xb,
                int(torch.randint(0, 4, (1,), generator=g)),
                bool(torch.rand(1, generator=g) < 0.5),
            )
            xb = _colour_jitter(xb, g)
            xb = xb + torch.randn(xb.shape, generator=g) * 0.03
            logits = net(xb)
            loss = F.cross_entropy(logits, yt[idx], label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yt[idx]).sum())
            seen += len(idx)
        log(
            f"face reader epoch {epoch + 1}/{epochs}: loss {total / seen:.4f}, "
            f"train accuracy {right / seen:.4f}"
        )
    net.eval()
    return net


def _focal(logit: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat map (peaks exactly 1), per positive."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 0.999).float()
    neg = (1 - pos) * weight
    lp = -((1 - p) ** 2) * torch.log(p) * pos
    ln = -((1 - heat) ** 4) * (p**2) * torch.log(1 - p) * neg
    return (lp.sum() + ln.sum()) / pos.sum().clamp(min=1.0)


def train_finder(
    data: tuple[np.ndarray, ...],
    epochs: int,
    seed: int,
    log: Callable[[str], None],
    warm: Path | None = None,
) -> FinderNet:
    """Train the finder on windows and their targets (:func:`.data.finder_sample`), from the
    weights in ``warm`` when given (then with its normalisation kept as learned)."""
    torch.manual_seed(seed + 1)
    torch.set_num_threads(THREADS)
    g = torch.Generator().manual_seed(seed + 1)
    images, heat, logside, side_mask, weight = (torch.from_numpy(a) for a in data)
    net = FinderNet()
    if warm is not None:
        net.load_state_dict(torch.load(warm))
    lr = 2e-3 if warm is None else 5e-4
    batch = 32
    opt, sched = _optimiser(net, lr, epochs * math.ceil(len(images) / batch))
    for epoch in range(epochs):
        _train_mode(net, keep_norm=warm is not None)
        order = torch.randperm(len(images), generator=g)
        total_h, total_s, n = 0.0, 0.0, 0
        for k in range(0, len(images), batch):
            idx = order[k : k + batch]
            xb = _blob(images[idx].numpy())
            tb = torch.stack([heat[idx], logside[idx], side_mask[idx], weight[idx]], dim=1)
            turn = int(torch.randint(0, 4, (1,), generator=g))
            flip = bool(torch.rand(1, generator=g) < 0.5)
            xb, tb = _turn(xb, turn, flip), _turn(tb, turn, flip)
            xb = _colour_jitter(xb, g)
            out = net(xb)
            lh = _focal(out[:, 0], tb[:, 0], tb[:, 3])
            m = tb[:, 2]
            ls = (torch.abs(out[:, 1] - tb[:, 1]) * m).sum() / m.sum().clamp(min=1.0)
            loss = lh + ls
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total_h += float(lh) * len(idx)
            total_s += float(ls) * len(idx)
            n += len(idx)
        log(
            f"finder epoch {epoch + 1}/{epochs}: heat loss {total_h / n:.4f}, side loss {total_s / n:.4f}"
        )
    net.eval()
    return net


def export_finder(finder: FinderNet, out: Path) -> None:
    """Write the finder as ONNX into ``out`` (any input size, multiples of 16; its PyTorch
    weights beside, not committed)."""
    finder.eval()
    with atomic_path(out / "dice_finder.pt") as tmp:
        torch.save(finder.state_dict(), tmp)
    with atomic_path(out / FINDER_FILE.name) as onnx_tmp:
        torch.onnx.export(
            finder,
            torch.zeros(1, 3, 96, 96),
            str(onnx_tmp),
            input_names=["image"],
            output_names=["heat_side"],
            dynamic_axes={
                "image": {0: "n", 2: "h", 3: "w"},
                "heat_side": {0: "n", 2: "h4", 3: "w4"},
            },
            opset_version=13,
            dynamo=False,
        )


def export_faces(faces: FaceNet, out: Path) -> None:
    """Write the face reader as ONNX into ``out`` (and its PyTorch weights beside, to warm
    start a later run; not committed)."""
    faces.eval()
    with atomic_path(out / "dice_faces.pt") as tmp:
        torch.save(faces.state_dict(), tmp)
    with atomic_path(out / FACES_FILE.name) as onnx_tmp:
        torch.onnx.export(
            faces,
            torch.zeros(1, 3, CROP_PX, CROP_PX),
            str(onnx_tmp),
            input_names=["crop"],
            output_names=["logits"],
            dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}},
            opset_version=13,
            dynamo=False,
        )

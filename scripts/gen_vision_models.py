#!/usr/bin/env python3
"""Small real vision models, converted by OpenVINO's own converter with dynamic dims.

Run from the repository root:

    python3 scripts/gen_vision_models.py            # the committed models
    python3 scripts/gen_vision_models.py --only yolo_tiny   # some of them
    python3 scripts/gen_vision_models.py --bench DIR  # full-size ones for scripts/bench_models.py
                                                      # (torchvision, and the PP-OCR models of the
                                                      # rapidocr wheel, downloaded with pip)

Each model is a PyTorch architecture with random weights (no pretrained weights
can be downloaded: torchvision ``weights=None`` and small hand-built networks of
the same building blocks, seeded), converted by ``openvino.convert_model`` with
its batch and spatial dims dynamic (``[?, C, ?, ?]``), saved by
``openvino.save_model`` (f32; one model also as OpenVINO's default f16-compressed
weights, and one quantized to int8 by NNCF as ``<name>_int8``). Written to ``ir-samples/models/<name>.xml/.bin`` with
``ir-samples/models/golden/<name>.json``: OpenVINO's per-layer shapes,
dynamic and at two static bindings (the layers of the file: nodes OpenVINO's
reshape makes of its own are left out), in the format of ``scripts/gen_samples.py``
(``crates/shape-infer/tests/golden.rs`` compares every layer). The CPU output
references are written by ``scripts/gen_exec_goldens.py`` (cases ``model_<name>``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import openvino as ov
import torch
import torch.nn as nn
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_samples  # noqa: E402  (the golden writer)

OUT = os.path.join("ir-samples", "models")


def conv_bn(cin, cout, k=3, s=1, groups=1):
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class TinyResNet(nn.Module):
    """ResNet's stem (7x7/2 conv, 3x3/2 max pool), two basic blocks (one
    strided with a projection), global average pool, linear classifier."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 7, 2, 3, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        self.block1 = torchvision.models.resnet.BasicBlock(8, 8)
        down = nn.Sequential(nn.Conv2d(8, 16, 1, 2, bias=False), nn.BatchNorm2d(16))
        self.block2 = torchvision.models.resnet.BasicBlock(8, 16, stride=2, downsample=down)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, classes))

    def forward(self, x):
        return self.head(self.block2(self.block1(self.stem(x))))


class TinyDetector(nn.Module):
    """A PP-OCR-DB-like text detector: a strided backbone to stride 4, then
    two stride-2 transposed convolutions back to the input size, a sigmoid
    probability map [N, 1, H, W] (H and W multiples of 4)."""

    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(conv_bn(3, 8, 3, 2), conv_bn(8, 8, 3, 1, groups=8), conv_bn(8, 16, 3, 2))
        self.up1 = nn.Sequential(nn.ConvTranspose2d(16, 8, 2, 2), nn.BatchNorm2d(8), nn.ReLU())
        self.up2 = nn.ConvTranspose2d(8, 1, 2, 2)

    def forward(self, x):
        return torch.sigmoid(self.up2(self.up1(self.backbone(x))))


class TinyRecognizer(nn.Module):
    """A CRNN-like text recognizer for 48-pixel lines: convolutions and
    pooling bring the height from 48 to 1, the width stays a sequence; the
    flatten to [N, W', C] only works when the height is 48."""

    def __init__(self, classes=12):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 8), nn.MaxPool2d(2, 2),  # 24
            conv_bn(8, 16), nn.MaxPool2d((2, 1), (2, 1)),  # 12
            conv_bn(16, 16), nn.MaxPool2d((3, 1), (3, 1)),  # 4
            conv_bn(16, 16), nn.AvgPool2d((4, 1), (4, 1)),  # 1
        )
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        f = self.features(x)  # [N, 16, 1, W/2]
        seq = f.squeeze(2).permute(0, 2, 1)  # [N, W/2, 16]: the height must be 1
        return self.fc(seq)


class TinyAudio(nn.Module):
    """An audio front end: strided 1-D convolutions with GroupNorm and GELU
    (wav2vec2's feature encoder, narrowed), then a projection."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 10, 5, bias=False), nn.GroupNorm(16, 16), nn.GELU(),
            nn.Conv1d(16, 16, 3, 2, bias=False), nn.GELU(),
            nn.Conv1d(16, 16, 2, 2, bias=False), nn.GELU(),
        )
        self.proj = nn.Linear(16, 8)

    def forward(self, x):
        return self.proj(self.conv(x).transpose(1, 2))


class TinyYolo(nn.Module):
    """A YOLO-style detector: a backbone to strides 8, 16 and 32, a top-down
    path that upsamples by 2 (nearest) and concatenates with the finer map,
    and a head per stride whose predictions are flattened to
    [N, anchors * h * w, 5 + classes] and concatenated: the box count is a
    sum over the three maps. The concatenations need H and W multiples of 32."""

    def __init__(self, classes=3, anchors=2):
        super().__init__()
        self.out = 5 + classes
        self.anchors = anchors
        self.s8 = nn.Sequential(conv_bn(3, 8, 3, 2), conv_bn(8, 8, 3, 2), conv_bn(8, 16, 3, 2))
        self.s16 = conv_bn(16, 16, 3, 2)
        self.s32 = conv_bn(16, 16, 3, 2)
        self.lat16 = conv_bn(32, 16, 1)
        self.lat8 = conv_bn(32, 16, 1)
        self.heads = nn.ModuleList(nn.Conv2d(16, anchors * self.out, 1) for _ in range(3))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x):
        p8 = self.s8(x)
        p16 = self.s16(p8)
        p32 = self.s32(p16)
        t16 = self.lat16(torch.cat([self.up(p32), p16], 1))
        t8 = self.lat8(torch.cat([self.up(t16), p8], 1))
        boxes = []
        for head, p in zip(self.heads, (t8, t16, p32)):
            y = head(p)
            n, _, h, w = y.shape
            boxes.append(y.view(n, self.anchors, self.out, h, w).permute(0, 1, 3, 4, 2).reshape(n, -1, self.out))
        return torch.cat(boxes, 1)


class TinySegmenter(nn.Module):
    """A U-Net-like segmenter: an encoder to stride 4, a decoder that resizes
    bilinearly to the skip connection's size (read from its shape) and at
    the end to the input's: [N, classes, H, W] for any H and W."""

    def __init__(self, classes=3):
        super().__init__()
        self.enc1 = conv_bn(3, 8, 3, 2)
        self.enc2 = conv_bn(8, 16, 3, 2)
        self.dec = conv_bn(24, 8)
        self.cls = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        up = nn.functional.interpolate(e2, size=e1.shape[-2:], mode="bilinear", align_corners=False)
        d = self.dec(torch.cat([up, e1], 1))
        return nn.functional.interpolate(self.cls(d), size=x.shape[-2:], mode="bilinear", align_corners=False)


def small_models():
    """name -> (module, example input shape, dynamic input shape, bindings (input dims), compress to f16)."""
    torch.manual_seed(0)
    return {
        "tiny_resnet": (TinyResNet(), [1, 3, 32, 32], [-1, 3, -1, -1], [[1, 3, 32, 32], [2, 3, 45, 61]], False),
        "mobilenet_v2_narrow": (
            torchvision.models.mobilenet_v2(weights=None, width_mult=0.1, num_classes=10),
            [1, 3, 32, 32], [-1, 3, -1, -1], [[1, 3, 32, 32], [2, 3, 40, 56]], True,
        ),
        "squeezenet_narrow": (torchvision.models.squeezenet1_1(weights=None, num_classes=4), [1, 3, 48, 48], [-1, 3, -1, -1], [[1, 3, 48, 48], [1, 3, 67, 53]], True),
        "text_detector": (TinyDetector(), [1, 3, 32, 32], [-1, 3, -1, -1], [[1, 3, 32, 32], [2, 3, 64, 96]], False),
        "text_recognizer": (TinyRecognizer(), [1, 3, 48, 40], [-1, 3, 48, -1], [[1, 3, 48, 40], [2, 3, 48, 100]], False),
        "audio_frontend": (TinyAudio(), [1, 1, 400], [-1, 1, -1], [[1, 1, 400], [2, 1, 1000]], False),
        "yolo_tiny": (TinyYolo(), [1, 3, 64, 64], [-1, 3, -1, -1], [[1, 3, 32, 64], [2, 3, 64, 96]], False),
        "segmenter_tiny": (TinySegmenter(), [1, 3, 32, 32], [-1, 3, -1, -1], [[1, 3, 32, 48], [2, 3, 27, 35]], False),
        "tiny_resnet_int8": (TinyResNet(), [1, 3, 32, 32], [-1, 3, -1, -1], [[1, 3, 32, 32], [2, 3, 45, 61]], False),
    }


class SegmentationOut(nn.Module):
    """A torchvision segmentation model's `out` map (they return a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def full_models():
    torch.manual_seed(0)
    segmentation = torchvision.models.segmentation
    return {
        "lraspp_mobilenet_v3_large": SegmentationOut(segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=21)),
        "deeplabv3_mobilenet_v3_large": SegmentationOut(segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=21, aux_loss=False)),
        "resnet18": torchvision.models.resnet18(weights=None),
        "resnet50": torchvision.models.resnet50(weights=None),
        "mobilenet_v2": torchvision.models.mobilenet_v2(weights=None),
        "squeezenet1_1": torchvision.models.squeezenet1_1(weights=None),
    }


def quantize(model, example):
    """The model as NNCF's post-training quantization writes it: activations
    and weights behind FakeQuantize, the weights stored as i8 and dequantized
    by Convert and Multiply (calibrated on eight seeded random inputs)."""
    import nncf

    rng = np.random.default_rng(0)
    data = [rng.uniform(-1, 1, example).astype(np.float32) for _ in range(8)]
    return nncf.quantize(model, nncf.Dataset(data), subset_size=len(data))


# PaddleOCR's PP-OCR models as the rapidocr wheel ships them (ONNX), with the
# input each is benchmarked at (a text line is 48 pixels high).
RAPIDOCR = {
    "ch_PP-OCRv4_det_infer": [1, 3, 480, 640],
    "ch_PP-OCRv4_rec_infer": [1, 3, 48, 320],
    "ch_ppocr_mobile_v2.0_cls_infer": [1, 3, 48, 192],
}


def rapidocr_models(folder):
    """Downloads the rapidocr wheel (pip) and converts its ONNX models with
    their dynamic dims; returns name -> benchmark input shape."""
    import glob
    import subprocess
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "rapidocr-onnxruntime==1.4.4", "-d", tmp], check=True, capture_output=True)
        wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
        with zipfile.ZipFile(wheel) as z:
            for name in RAPIDOCR:
                path = z.extract(f"rapidocr_onnxruntime/models/{name}.onnx", tmp)
                model = ov.convert_model(path)
                model.inputs[0].get_node().set_friendly_name("x")
                model.inputs[0].set_names({"x"})
                ov.save_model(model, os.path.join(folder, f"{name}.xml"), compress_to_fp16=False)
                print(f"wrote {folder}/{name}.xml")
    return dict(RAPIDOCR)


def convert(module, example, dynamic):
    module.eval()
    model = ov.convert_model(module, example_input=torch.randn(*example), input=[tuple(dynamic)])
    model.inputs[0].get_node().set_friendly_name("x")
    model.inputs[0].set_names({"x"})
    return model


def write_golden(xml, bindings):
    """Writes ``ir-samples/models/golden/<name>.json`` for the saved model
    ``xml``: OpenVINO's shapes, dynamic and at ``bindings`` (one dict of
    input name -> dims each)."""
    g = gen_samples.golden(xml, bindings)
    # OpenVINO's reshape rewrites some shape subgraphs (a flatten's
    # ShapeOf -> Gather -> Concat) into new nodes of its own naming,
    # which are not layers of the file: keep the layers of the file.
    layers = {op["name"] for op in g["dynamic"]}
    for entry in g["static_bindings"]:
        if "ops" in entry:
            entry["ops"] = [op for op in entry["ops"] if op["name"] in layers]
    name = os.path.basename(xml)[: -len(".xml")]
    with open(os.path.join(OUT, "golden", f"{name}.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(g, f, indent=1)
        f.write("\n")
    size = os.path.getsize(xml.replace(".xml", ".bin"))
    print(f"{name}: {len(g['dynamic'])} ops, {size} bytes of weights, output {g['outputs'][0]['shape']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", metavar="DIR", help="write the full-size benchmark models to DIR instead")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="write only these small models")
    args = parser.parse_args()
    if args.bench:
        os.makedirs(args.bench, exist_ok=True)
        for name, module in full_models().items():
            model = convert(module, [1, 3, 224, 224], [-1, 3, -1, -1])
            ov.save_model(model, os.path.join(args.bench, f"{name}.xml"), compress_to_fp16=False)
            print(f"wrote {args.bench}/{name}.xml")
        shapes = rapidocr_models(args.bench)
        with open(os.path.join(args.bench, "shapes.json"), "w", encoding="utf-8") as f:
            json.dump(shapes, f, indent=1)
        return 0
    os.makedirs(os.path.join(OUT, "golden"), exist_ok=True)
    models = small_models()
    for name, (module, example, dynamic, bindings, f16) in models.items():
        if args.only and name not in args.only:
            continue
        model = convert(module, example, dynamic)
        xml = os.path.join(OUT, f"{name}.xml")
        if name.endswith("_int8"):
            model = quantize(model, example)
        ov.save_model(model, xml, compress_to_fp16=f16)
        write_golden(xml, [{"x": b} for b in bindings])
    return 0


if __name__ == "__main__":
    sys.exit(main())

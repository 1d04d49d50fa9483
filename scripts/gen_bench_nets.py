#!/usr/bin/env python3
"""Full-size MobileNetV2, ResNet-18, ResNet-50 and SqueezeNet 1.1 built with OpenVINO's opset API, without torch.

Run from the repository root:

    python3 scripts/gen_bench_nets.py DIR     # then: python3 scripts/bench_models.py --models DIR --skip-small

``scripts/gen_vision_models.py --bench`` converts torchvision's models, which
needs torch; where torch cannot be installed, this writes the same
architectures as OpenVINO's converter leaves them (batch norms folded into the
convolutions' weights, whose biases are zero for ``weights=None`` models and
so vanish: Convolution -> Clamp(0, 6) or ReLU, residual Adds, MaxPool, a global
ReduceMean, the classifier's MatMul and Add), seeded random weights scaled so
activations stay of order one, inputs ``[?, 3, ?, ?]``, f32 weights.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

RNG = np.random.default_rng(0)


def const(shape, fan_in):
    return ops.constant((RNG.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32))


def conv(x, cin, cout, k, stride=1, groups=1):
    pad = k // 2
    if groups == 1:
        w = const([cout, cin, k, k], cin * k * k)
        return ops.convolution(x, w, [stride, stride], [pad, pad], [pad, pad], [1, 1])
    w = const([groups, cout // groups, cin // groups, k, k], cin // groups * k * k)
    return ops.group_convolution(x, w, [stride, stride], [pad, pad], [pad, pad], [1, 1])


def classifier(x, channels, classes=1000):
    pooled = ops.reduce_mean(x, ops.constant(np.array([2, 3], np.int64)), keep_dims=True)
    flat = ops.reshape(pooled, ops.constant(np.array([-1, channels], np.int64)), special_zero=False)
    logits = ops.matmul(flat, const([classes, channels], channels), transpose_a=False, transpose_b=True)
    return ops.add(logits, const([1, classes], 1))


def mobilenet_v2():
    """torchvision's mobilenet_v2 (width 1.0)."""
    x = ops.parameter([-1, 3, -1, -1], ov.Type.f32, name="x")
    y = ops.clamp(conv(x, 3, 32, 3, 2), 0.0, 6.0)
    cin = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            h = y
            if t != 1:
                h = ops.clamp(conv(h, cin, hidden, 1), 0.0, 6.0)
            h = ops.clamp(conv(h, hidden, hidden, 3, stride, groups=hidden), 0.0, 6.0)
            h = conv(h, hidden, c, 1)
            y = ops.add(y, h) if stride == 1 and cin == c else h
            cin = c
    y = ops.clamp(conv(y, cin, 1280, 1), 0.0, 6.0)
    return ov.Model([classifier(y, 1280)], [x], "mobilenet_v2")


def resnet(blocks, bottleneck, name):
    """torchvision's resnet18 (basic blocks) or resnet50 (bottlenecks)."""
    x = ops.parameter([-1, 3, -1, -1], ov.Type.f32, name="x")
    y = ops.relu(conv(x, 3, 64, 7, 2))
    y = ops.max_pool(y, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3], "floor", "explicit").output(0)
    cin = 64
    expansion = 4 if bottleneck else 1
    for stage, (width, count) in enumerate(zip([64, 128, 256, 512], blocks)):
        for i in range(count):
            stride = 2 if stage > 0 and i == 0 else 1
            cout = width * expansion
            if bottleneck:
                h = ops.relu(conv(y, cin, width, 1))
                h = ops.relu(conv(h, width, width, 3, stride))
                h = conv(h, width, cout, 1)
            else:
                h = ops.relu(conv(y, cin, width, 3, stride))
                h = conv(h, width, cout, 3)
            short = y
            if stride != 1 or cin != cout:
                w = const([cout, cin, 1, 1], cin)
                short = ops.convolution(y, w, [stride, stride], [0, 0], [0, 0], [1, 1])
            y = ops.relu(ops.add(h, short))
            cin = cout
    return ov.Model([classifier(y, cin)], [x], name)


def squeezenet1_1():
    """torchvision's squeezenet1_1: Fire modules (a 1x1 squeeze, then 1x1 and
    3x3 expands concatenated), ceil-mode max pools, a 1x1 convolution as the
    classifier and a global average pool. Its convolutions keep their biases
    (trained ones are not zero), as per-channel Adds."""
    x = ops.parameter([-1, 3, -1, -1], ov.Type.f32, name="x")

    def conv_relu(h, cin, cout, k, stride=1, pad=0):
        w = const([cout, cin, k, k], cin * k * k)
        y = ops.convolution(h, w, [stride, stride], [pad, pad], [pad, pad], [1, 1])
        bias = ops.constant((RNG.standard_normal([1, cout, 1, 1]) * 0.1).astype(np.float32))
        return ops.relu(ops.add(y, bias))

    def fire(h, cin, squeeze, expand):
        s = conv_relu(h, cin, squeeze, 1)
        return ops.concat([conv_relu(s, squeeze, expand, 1), conv_relu(s, squeeze, expand, 3, pad=1)], 1)

    def pool(h):
        return ops.max_pool(h, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil", "explicit").output(0)

    y = pool(conv_relu(x, 3, 64, 3, 2))
    y = pool(fire(fire(y, 64, 16, 64), 128, 16, 64))
    y = pool(fire(fire(y, 128, 32, 128), 256, 32, 128))
    for cin, squeeze, expand in [(256, 48, 192), (384, 48, 192), (384, 64, 256), (512, 64, 256)]:
        y = fire(y, cin, squeeze, expand)
    y = conv_relu(y, 512, 1000, 1)
    pooled = ops.reduce_mean(y, ops.constant(np.array([2, 3], np.int64)), keep_dims=False)
    return ov.Model([pooled], [x], "squeezenet1_1")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    models = {
        "mobilenet_v2": mobilenet_v2(),
        "resnet18": resnet([2, 2, 2, 2], False, "resnet18"),
        "resnet50": resnet([3, 4, 6, 3], True, "resnet50"),
        "squeezenet1_1": squeezenet1_1(),
    }
    for name, model in models.items():
        ov.save_model(model, os.path.join(folder, f"{name}.xml"), compress_to_fp16=False)
        print(f"wrote {folder}/{name}.xml")
    return 0


if __name__ == "__main__":
    sys.exit(main())

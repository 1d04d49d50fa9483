#!/usr/bin/env python3
"""Small real transformer models, converted by OpenVINO's own converter with dynamic dims.

Run from the repository root:

    python3 scripts/gen_transformer_models.py              # the committed models
    python3 scripts/gen_transformer_models.py --only bert  # some of them
    python3 scripts/gen_transformer_models.py --bench DIR  # BERT-base-sized and Llama-style
                                                           # models for scripts/bench_models.py

Each model is a Hugging Face ``transformers`` architecture built from a small
config with random weights (no pretrained weights can be downloaded), or a
torchvision one (Swin), seeded, converted by ``openvino.convert_model`` with
batch and sequence (or spatial) dims dynamic and saved f32. Text models take
``input_ids`` and ``attention_mask`` (both ``[?, ?]``, i64) and return the
last hidden state; vision models take ``x`` (``[?, 3, ?, ?]``). ``llama_int4``
is ``llama`` with its weights compressed by NNCF to int4 (asymmetric u4
groups of 16 with f16 scales and zero points), as large models ship.

Written to ``ir-samples/models/<name>.xml/.bin`` with
``ir-samples/models/golden/<name>.json`` (OpenVINO's per-layer shapes, dynamic
and at static bindings, as ``scripts/gen_vision_models.py`` writes them). The
CPU output references are written by ``scripts/gen_exec_goldens.py`` (cases
``model_<name>``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import openvino as ov
import torch
import torchvision
import transformers as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_vision_models  # noqa: E402  (the golden writer)

OUT = gen_vision_models.OUT
TEXT_BINDINGS = [[2, 7], [1, 1], [3, 16]]
VISION_BINDINGS = [[1, 3, 32, 32], [2, 3, 48, 40]]


class LastHidden(torch.nn.Module):
    """A text model's last hidden state from ids and mask."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids=input_ids, attention_mask=attention_mask)[0]


class ViTLastHidden(torch.nn.Module):
    """A ViT's last hidden state; positions interpolated to any image size."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(pixel_values=x, interpolate_pos_encoding=True)[0]


def text_models(hidden=32, layers=2, heads=4, ffn=64, vocab=100, positions=64):
    """name -> module, for the text architectures at the given sizes."""
    return {
        "bert": LastHidden(
            tf.BertModel(
                tf.BertConfig(
                    vocab_size=vocab,
                    hidden_size=hidden,
                    num_hidden_layers=layers,
                    num_attention_heads=heads,
                    intermediate_size=ffn,
                    max_position_embeddings=positions,
                )
            )
        ),
        "distilbert": LastHidden(
            tf.DistilBertModel(
                tf.DistilBertConfig(vocab_size=vocab, dim=hidden, n_layers=layers, n_heads=heads, hidden_dim=ffn, max_position_embeddings=positions)
            )
        ),
        "gpt2": LastHidden(
            tf.GPT2Model(
                tf.GPT2Config(
                    vocab_size=vocab, n_embd=hidden, n_layer=layers, n_head=heads, n_positions=positions, use_cache=False, bos_token_id=0, eos_token_id=0
                )
            )
        ),
        "llama": LastHidden(
            tf.LlamaModel(
                tf.LlamaConfig(
                    vocab_size=vocab,
                    hidden_size=hidden,
                    num_hidden_layers=layers,
                    num_attention_heads=heads,
                    num_key_value_heads=max(1, heads // 2),
                    intermediate_size=ffn,
                    max_position_embeddings=positions,
                    use_cache=False,
                )
            )
        ),
        "t5_encoder": LastHidden(
            tf.T5EncoderModel(tf.T5Config(vocab_size=vocab, d_model=hidden, d_kv=hidden // heads, d_ff=ffn, num_layers=layers, num_heads=heads, use_cache=False))
        ),
    }


def vision_models():
    """name -> module, for the vision transformers."""
    vit = tf.ViTModel(tf.ViTConfig(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64))
    swin = torchvision.models.SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4], num_classes=10)
    return {"vit": ViTLastHidden(vit), "swin_narrow": swin}


def convert_text(module, seq=7):
    module.eval()
    ids = torch.randint(0, 100, (2, seq))
    mask = torch.ones(2, seq, dtype=torch.int64)
    return ov.convert_model(module, example_input=(ids, mask), input=[ov.PartialShape([-1, -1]), ov.PartialShape([-1, -1])])


def convert_vision(module):
    module.eval()
    model = ov.convert_model(module, example_input=torch.randn(1, 3, 32, 32), input=[ov.PartialShape([-1, 3, -1, -1])])
    model.inputs[0].get_node().set_friendly_name("x")
    model.inputs[0].set_names({"x"})
    return model


def compress_int4(model, group_size=16):
    import nncf

    return nncf.compress_weights(model, mode=nncf.CompressWeightsMode.INT4_ASYM, group_size=group_size, ratio=1.0, all_layers=True)


def write(name, model, bindings):
    xml = os.path.join(OUT, f"{name}.xml")
    ov.save_model(model, xml, compress_to_fp16=False)
    gen_vision_models.write_golden(xml, bindings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", metavar="DIR", help="write the full-size benchmark models to DIR instead")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="write only these small models")
    args = parser.parse_args()
    if args.bench:
        os.makedirs(args.bench, exist_ok=True)
        torch.manual_seed(0)
        # BERT-base-sized (12 layers, hidden 768) and a Llama-style decoder
        # (4 layers, hidden 2048), as issue 14's latency targets name them.
        big = {
            "bert_base": text_models(hidden=768, layers=12, heads=12, ffn=3072, vocab=30522, positions=512)["bert"],
            "llama_2048": text_models(hidden=2048, layers=4, heads=16, ffn=5632, vocab=32000, positions=2048)["llama"],
        }
        shapes = {}
        for name, module in big.items():
            model = convert_text(module, seq=128)
            ov.save_model(model, os.path.join(args.bench, f"{name}.xml"), compress_to_fp16=False)
            shapes[name] = {"input_ids": [1, 128], "attention_mask": [1, 128]}
            print(f"wrote {args.bench}/{name}.xml")
            if name == "llama_2048":
                ov.save_model(compress_int4(model, group_size=128), os.path.join(args.bench, f"{name}_int4.xml"), compress_to_fp16=False)
                shapes[f"{name}_int4"] = shapes[name]
                print(f"wrote {args.bench}/{name}_int4.xml")
        with open(os.path.join(args.bench, "transformer_shapes.json"), "w", encoding="utf-8") as f:
            json.dump(shapes, f, indent=1)
        return 0
    os.makedirs(os.path.join(OUT, "golden"), exist_ok=True)
    wanted = lambda name: not args.only or name in args.only  # noqa: E731
    text_bindings = [{"input_ids": b, "attention_mask": b} for b in TEXT_BINDINGS]
    torch.manual_seed(0)
    for name, module in text_models().items():
        if wanted(name) or (name == "llama" and wanted("llama_int4")):
            model = convert_text(module)
            if wanted(name):
                write(name, model, text_bindings)
            if name == "llama" and wanted("llama_int4"):
                write("llama_int4", compress_int4(model), text_bindings)
    torch.manual_seed(0)
    for name, module in vision_models().items():
        if wanted(name):
            write(name, convert_vision(module), [{"x": b} for b in VISION_BINDINGS])
    return 0


if __name__ == "__main__":
    sys.exit(main())

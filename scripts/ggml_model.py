#!/usr/bin/python3
"""A llama-architecture GGUF model with random weights and a real vocabulary, for llama.cpp.

No model can be downloaded here, and test-llama-archs' models (about a million parameters) measure
the cost per operator rather than the kernels. This writes one of the size people run on a laptop
(default about 134 M parameters, the shape of a small llama: 12 layers, 768 wide, 32,000 tokens),
deterministic from a seed, with the tokenizer of one of llama.cpp's vocab-only GGUFs so that
llama-completion and llama-bench treat it as any other model.

    scripts/ggml_model.py --llama-cpp build/ggml/llama.cpp --out model-f16.gguf --type f16

Weights: projections N(0, 1/fan_in) so that each layer adds about unit variance to the residual
stream, token embeddings N(0, 1) so that the current token still weighs in after 12 layers, the
output N(0, 4/n_embd) (logits with a standard deviation of about 2): greedy decoding then walks
through many tokens instead of settling on one.
Needs numpy and llama.cpp's gguf-py (pure Python, found under --llama-cpp).
"""
import argparse
import sys
from pathlib import Path

import numpy as np


def copy_vocab(gguf, writer, vocab_path):
    """Every tokenizer.* key of a vocab-only GGUF, with its own value types."""
    reader = gguf.GGUFReader(vocab_path)
    for key, field in reader.fields.items():
        if not key.startswith("tokenizer."):
            continue
        vtype = field.types[0]
        sub = field.types[1] if vtype == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(key, field.contents(), vtype, sub)
    return len(reader.fields["tokenizer.ggml.tokens"].data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp source (gguf-py, models/)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--type", choices=["f32", "f16", "q8_0"], default="f32",
                    help="matrix weights' type (norms stay f32, as llama.cpp's converter has them)")
    ap.add_argument("--vocab", default="llama-spm", help="models/ggml-vocab-NAME.gguf")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--embd", type=int, default=768)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--kv-heads", type=int, default=12)
    ap.add_argument("--ff", type=int, default=2048)
    ap.add_argument("--ctx", type=int, default=2048)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    root = Path(args.llama_cpp)
    sys.path.insert(0, str(root / "gguf-py"))
    import gguf  # pylint: disable=import-outside-toplevel

    qtype = {"f32": gguf.GGMLQuantizationType.F32, "f16": gguf.GGMLQuantizationType.F16,
             "q8_0": gguf.GGMLQuantizationType.Q8_0}[args.type]
    ftype = {"f32": gguf.LlamaFileType.ALL_F32, "f16": gguf.LlamaFileType.MOSTLY_F16,
             "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}[args.type]
    w = gguf.GGUFWriter(args.out, "llama")
    n_vocab = copy_vocab(gguf, w, root / "models" / f"ggml-vocab-{args.vocab}.gguf")
    head_dim = args.embd // args.heads
    w.add_name(f"openacl random llama {args.layers}x{args.embd} seed {args.seed}")
    w.add_file_type(ftype)
    w.add_vocab_size(n_vocab)
    w.add_context_length(args.ctx)
    w.add_embedding_length(args.embd)
    w.add_block_count(args.layers)
    w.add_feed_forward_length(args.ff)
    w.add_head_count(args.heads)
    w.add_head_count_kv(args.kv_heads)
    w.add_rope_dimension_count(head_dim)
    w.add_layer_norm_rms_eps(1e-5)

    rng = np.random.default_rng(args.seed)

    def matrix(name, rows, cols, std):
        """A [rows, cols] weight (ggml's ne = [cols, rows]) in the chosen type."""
        data = (rng.standard_normal((rows, cols), dtype=np.float32) * np.float32(std))
        if qtype == gguf.GGMLQuantizationType.F32:
            w.add_tensor(name, data)
        elif qtype == gguf.GGMLQuantizationType.F16:
            w.add_tensor(name, data.astype(np.float16))
        else:
            w.add_tensor(name, gguf.quants.quantize(data, qtype), raw_dtype=qtype)

    def norm(name):
        w.add_tensor(name, np.ones(args.embd, dtype=np.float32))

    kv = args.kv_heads * head_dim
    matrix("token_embd.weight", n_vocab, args.embd, 1.0)
    for i in range(args.layers):
        p = f"blk.{i}."
        norm(p + "attn_norm.weight")
        matrix(p + "attn_q.weight", args.embd, args.embd, args.embd ** -0.5)
        matrix(p + "attn_k.weight", kv, args.embd, args.embd ** -0.5)
        matrix(p + "attn_v.weight", kv, args.embd, args.embd ** -0.5)
        matrix(p + "attn_output.weight", args.embd, args.embd, args.embd ** -0.5)
        norm(p + "ffn_norm.weight")
        matrix(p + "ffn_gate.weight", args.ff, args.embd, args.embd ** -0.5)
        matrix(p + "ffn_up.weight", args.ff, args.embd, args.embd ** -0.5)
        matrix(p + "ffn_down.weight", args.embd, args.ff, args.ff ** -0.5)
    norm("output_norm.weight")
    matrix("output.weight", n_vocab, args.embd, 2.0 * args.embd ** -0.5)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()

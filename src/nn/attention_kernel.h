// FusedInferAttentionScoreV2's kernel: softmax(scale * Q K^T + pse, masked) V straight from the
// caller's views. Key and value are usually a slice of a float16 cache (ggml's, strided over
// the whole cache); each row is converted as it is read, so no call casts or gathers the cache.
#pragma once

#include <cstdint>
#include <memory>

#include "nn/plan.h"

namespace openacl::nn {

struct AttentionShape {
  int64_t batch = 0, heads = 0, kv_heads = 0, q_len = 0, kv_len = 0, head_dim = 0;
  float scale = 1;
  bool pse = false, mask = false;
};

// Inputs: query [B, heads, S, D], key and value [B, kv_heads, Skv, D], then when present pse
// (float) and mask (1-byte, nonzero = masked) as [B, heads, S, Skv] views (stride 0 where they
// broadcast). Output [B, heads, S, D]. Float inputs and output of any of f32, f16, bf16.
std::shared_ptr<const StridedKernel> attention_kernel(const AttentionShape &shape);

}  // namespace openacl::nn

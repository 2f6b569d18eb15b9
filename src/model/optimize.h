// Load-time graph rewrites that remove work without changing results beyond float rounding.
#pragma once

#include "model/graph.h"

namespace openacl::model {

// Rewrites graph in place; returns the number of nodes folded away.
size_t fuse_conv_affine(Graph &graph);

// x * Clip(x + 3, 0, 6) / 6 and x * HardSigmoid(x) with alpha 1/6, beta 0.5 (the two ways
// exporters spell hard-swish) become one HardSwish node. Returns the number of rewrites.
size_t fuse_hard_swish(Graph &graph);

// An activation (Relu, Sigmoid, Tanh, HardSwish, Softplus) followed by a Mul and / or an Add
// (or Sub) of a float32 scalar constant, as PP-OCRv4's learnable affine blocks follow each
// activation, becomes the activation node with attrs kPostScale and kPostShift: y = f(x) *
// scale + shift in one pass over the tensor instead of three (kPostRank: the constants' largest
// rank, which the output's rank is at least). Returns the number of rewrites.
inline constexpr const char *kPostScale = "openacl_post_scale";
inline constexpr const char *kPostShift = "openacl_post_shift";
inline constexpr const char *kPostRank = "openacl_post_rank";
size_t fuse_activation_affine(Graph &graph);

// Drops nodes whose outputs no graph output depends on.
void remove_dead_nodes(Graph &graph);

}  // namespace openacl::model

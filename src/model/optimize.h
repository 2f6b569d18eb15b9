// Load-time graph rewrites that remove work without changing results beyond float rounding:
// a BatchNormalization, or a per-channel Mul / Add / Sub by a constant, that follows a Conv
// whose output nothing else reads is folded into the Conv's filter and bias.
#pragma once

#include "model/graph.h"

namespace openacl::model {

// Rewrites graph in place; returns the number of nodes folded away.
size_t fuse_conv_affine(Graph &graph);

// Drops nodes whose outputs no graph output depends on.
void remove_dead_nodes(Graph &graph);

}  // namespace openacl::model

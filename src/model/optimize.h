// Load-time graph rewrites that remove work without changing results beyond float rounding.
#pragma once

#include "model/graph.h"

namespace openacl::model {

// Rewrites graph in place; returns the number of nodes folded away.
size_t fuse_conv_affine(Graph &graph);

// x * Clip(x + 3, 0, 6) / 6 and x * HardSigmoid(x) with alpha 1/6, beta 0.5 (the two ways
// exporters spell hard-swish) become one HardSwish node. Returns the number of rewrites.
size_t fuse_hard_swish(Graph &graph);

// Drops nodes whose outputs no graph output depends on.
void remove_dead_nodes(Graph &graph);

}  // namespace openacl::model

// DVPP channels. A channel holds no state of its own on the simulated NPU (its work runs as
// tasks of the caller's streams); it exists so that calls can be checked as CANN checks them.
#pragma once

#include <cstdint>

namespace openacl::dvpp {

// A new channel id, never 0 and never reused in the process.
uint64_t open_channel();

}  // namespace openacl::dvpp

// The observers of the check layer, as the Runtime takes them (core/runtime_parts.h).
#pragma once

#include <memory>
#include <string>

#include "core/config.h"
#include "core/observer.h"

namespace openacl::check {

// The observer the configuration asks for: the race checker (OPENACL_CHECK), the trace
// recorder (OPENACL_TRACE), both behind one observer, or nullptr when both are off.
std::unique_ptr<TaskObserver> create_diagnostics(const Config &config);
// A trace recorder writing to path, for profiling sessions.
std::unique_ptr<TaskObserver> create_trace(const std::string &path);

}  // namespace openacl::check

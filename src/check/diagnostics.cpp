// Builds the diagnostics observer from the configuration (SPEC R21).
#include "core/config.h"
#include "core/observer.h"
#include "core/status.h"

namespace openacl {

std::unique_ptr<TaskObserver> create_diagnostics(const Config &config) {
  if (!config.trace_path.empty() || !config.check_mode.empty()) {
    fail(Errc::feature_not_supported,
         "OPENACL_TRACE / OPENACL_CHECK are not available in this build yet");
  }
  return nullptr;
}

}  // namespace openacl

// Row bands of a picture spread over the device's AI cores, for the VPC units.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backend/ai_cores.h"

namespace openacl::dvpp {

// Runs body(begin, end) over the rows [0, rows) in bands, one band a core, on `cores` (the
// calling thread takes a band too) when there is more than one core and each band would have
// 32 rows at least (fewer cost more in hand-over than they save); without cores, as one band.
template <class Body>
void for_rows(backend::AiCores *cores, uint32_t rows, Body &&body) {
  constexpr uint32_t kRowsPerBand = 32;
  const uint32_t bands =
      cores == nullptr ? 1 : std::min<uint32_t>(cores->count(), std::max(1u, rows / kRowsPerBand));
  if (bands <= 1) return body(0u, rows);
  cores->parallel_for(bands, [&](size_t i) {
    body(static_cast<uint32_t>(rows * i / bands), static_cast<uint32_t>(rows * (i + 1) / bands));
  });
}

}  // namespace openacl::dvpp

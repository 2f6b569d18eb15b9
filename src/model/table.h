// The loaded models by id (aclmdlLoad*). Ids count from 1 and are never reused, so the id of
// an unloaded model, or of one loaded before aclFinalize, is never taken for another model.
// The table is one of the Runtime's handle tables: aclFinalize empties it.
#pragma once

#include <cstdint>
#include <memory>

#include "model/model.h"

namespace openacl::model {

// Registers a loaded model; returns its id (never 0).
uint32_t add_model(std::shared_ptr<Model> model);
// The live model; Errc::invalid_model_id for an unknown id, or a model whose context died
// (aclFinalize, reset of its device).
std::shared_ptr<Model> find_model(uint32_t id);
// Unregisters the live model and returns it (same errors as find_model).
std::shared_ptr<Model> remove_model(uint32_t id);

}  // namespace openacl::model

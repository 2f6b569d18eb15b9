// The two phases every aclnn entry point of libopapi forwards to, through the one guarded
// wrapper with aclnn's status codes (aclnn_base.h). An entry point names its operator and
// passes its arguments in parameter order; the operator's planner (src/nn/) does the rest.
#pragma once

#include <initializer_list>
#include <utility>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "api/guard.h"
#include "api/handles.h"
#include "core/stream.h"
#include "nn/executor.h"
#include "nn/planner.h"

namespace openacl::api {

// Errc -> aclnnStatus: NULL arguments 161001, rejected arguments 161002, runtime refusals
// (context, stream, device memory) 361001, internal failures 561000.
aclnnStatus to_aclnn_status(Errc code);
// The same, but a NULL is ACLNN_ERR_INNER_NULLPTR (561103), as CANN's executor calls report it.
aclnnStatus to_aclnn_inner_status(Errc code);

template <class F>
aclnnStatus aclnn_guarded(const char *api, F &&body) noexcept {
  return guarded_as<aclnnStatus>(api, to_aclnn_status, ACLNN_ERR_INNER, std::forward<F>(body));
}

// Phase 1: aclnnXxxGetWorkspaceSize.
inline aclnnStatus aclnn_plan(const char *api, const char *op, std::initializer_list<nn::Arg> args,
                              uint64_t *workspace_size, aclOpExecutor **executor) noexcept {
  return aclnn_guarded(api, [&] { nn::plan(op, args, workspace_size, executor); });
}

// Phase 2: aclnnXxx, on a stream of the calling thread's current context.
inline aclnnStatus aclnn_run(const char *api, void *workspace, uint64_t workspace_size,
                             aclOpExecutor *executor, aclrtStream stream) noexcept {
  return aclnn_guarded(api, [&] {
    std::shared_ptr<Stream> held;  // only when the stream could not be borrowed
    nn::run(executor, workspace, workspace_size,
            [&]() -> Stream & { return stream_ref_for_submit(stream, held); });
  });
}

}  // namespace openacl::api

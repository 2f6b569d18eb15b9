#include "nn/thread_scratch.h"

#include "nn/executor.h"
#include "nn/objects.h"

namespace openacl::nn {

ThreadScratch::ThreadScratch() {
  executors.reserve(kMaxSpares);
  registry_nodes.reserve(kMaxSpares);
  tensors.reserve(kMaxSpares);
  scalars.reserve(kMaxSpares);
  key.resize(1024);  // grown by plan_key when a key needs more
}

ThreadScratch::~ThreadScratch() {
  for (aclOpExecutor *e : executors) delete e;
  for (aclTensor *t : tensors) delete t;
  for (aclScalar *s : scalars) delete s;
}

ThreadScratch &make_thread_scratch() {
  auto s = std::make_shared<ThreadScratch>();
  this_thread().nn_scratch = s;
  return *s;
}

}  // namespace openacl::nn

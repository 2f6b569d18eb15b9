// Storage of Task objects (Task::operator new / delete): the common small tasks (copies,
// memsets, kernel launches, event records and waits: at most kMaxBytes) reuse the blocks of
// tasks that have finished instead of a malloc and a free each.
//
// A task is allocated by the host thread that enqueues it and freed by the worker (or waiting
// host thread) that ran it, so a plain per-thread cache would fill on the worker and run dry on
// the host thread. Each thread keeps a small cache per size class and trades whole batches of
// blocks with a process-wide depot: one lock per kBatch tasks on either side, no lock and no
// allocation per task. Tasks can outlive their stream (a capture keeps them), so the storage
// belongs to threads, not to streams. The depot and the caches are bounded; what does not fit
// goes back to malloc. Under AddressSanitizer every task is a plain allocation, so that a use
// after free is still caught.
//
// Thread safety: both functions may be called from any thread, also while it exits.
#pragma once

#include <cstddef>

namespace openacl::task_storage {

// Largest task served from the caches; larger ones are plain allocations.
inline constexpr size_t kMaxBytes = 384;

void *allocate(size_t bytes);
// `bytes` is the size given to allocate() for p.
void release(void *p, size_t bytes) noexcept;

}  // namespace openacl::task_storage

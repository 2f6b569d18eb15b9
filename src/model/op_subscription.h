// acl_prof.h's model subscription: after each execution of a subscribed model, one OpRecord per
// op (type, node name, start and end in ns, model id) goes to the subscriber's pipe, written by
// the device worker that ran the model. The record layout is openacl's own (programs size their
// reads with aclprofGetOpDescSize, as with CANN); the aclprofGetOp* calls read records back out
// of the bytes the program read from its end of the pipe, so this header is all they need and
// stays free of the model executor (a core-only build has the readers but no models).
#pragma once

#include <cstdint>

namespace openacl::model {

inline constexpr char kOpRecordMagic[4] = {'O', 'A', 'O', 'P'};

// One op of one execution as it travels through the pipe. Names longer than the fields are cut.
struct OpRecord {
  char magic[4];
  uint32_t model_id;
  uint64_t start_ns, end_ns;
  char type[64];
  char name[168];
};
static_assert(sizeof(OpRecord) == 256);

class Model;

// Writes model's op records to the pipe `fd` after each execution, without times unless
// `timed`. Throws invalid_argument when the model is subscribed already.
void subscribe_ops(Model &model, int fd, bool timed);
// Ends model's subscription, waiting for a write under way, so that the program may close the
// pipe once it returns. Throws invalid_argument when the model is not subscribed.
void unsubscribe_ops(Model &model);

}  // namespace openacl::model

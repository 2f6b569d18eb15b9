// aclopAttr: the attributes of one op call, by name (a plain value, no aclInit needed).
#pragma once

#include "acl/acl_op.h"
#include "ops/op.h"

struct aclopAttr {
  openacl::ops::Attrs attrs;
};

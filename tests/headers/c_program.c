/* A plain C11 program against libascendcl, built with either include style AscendCL programs use
 * (-I<prefix>/include + "acl/acl.h", or -I<prefix>/include/acl + "acl.h"): it must compile, link
 * with the C linker and get reference behaviour. Exit status 0 = pass. */
#ifdef OPENACL_INCLUDE_ACL_DIR
#include "acl.h"
#include "acl_prof.h"
#else
#include "acl/acl.h"
#include "acl/acl_prof.h"
#endif

#include <stdio.h>
#include <string.h>

int main(void) {
  int failures = 0;
  if (aclDataTypeSize(ACL_FLOAT16) != 2 || aclDataTypeSize(ACL_INT64) != 8) {
    fprintf(stderr, "aclDataTypeSize gives the wrong sizes\n");
    ++failures;
  }
  /* no openacl counterpart: the weak definition answers */
  aclError ret = aclrtSnapShotProcessLock(0, NULL);
  if (ret != ACL_ERROR_API_NOT_SUPPORT) {
    fprintf(stderr, "aclrtSnapShotProcessLock returned %d, expected %d\n", ret,
            ACL_ERROR_API_NOT_SUPPORT);
    ++failures;
  }
  const char *msg = aclGetRecentErrMsg();
  if (msg == NULL || strstr(msg, "aclrtSnapShotProcessLock") == NULL) {
    fprintf(stderr, "aclGetRecentErrMsg does not name the unsupported call: %s\n",
            msg ? msg : "(null)");
    ++failures;
  }
  /* acl_prof.h links from libascendcl too; stamps need no aclInit */
  void *stamp = aclprofCreateStamp();
  if (stamp == NULL || aclprofSetStampTraceMessage(stamp, "c", 1) != ACL_SUCCESS) {
    fprintf(stderr, "aclprofCreateStamp / aclprofSetStampTraceMessage failed: %s\n",
            aclGetRecentErrMsg());
    ++failures;
  }
  aclprofDestroyStamp(stamp);
  return failures == 0 ? 0 : 1;
}

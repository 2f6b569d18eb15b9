/* A C program against acl/ops/acl_dvpp.h, linked by the C compiler with libacl_dvpp and
 * libascendcl as CANN programs are (-lacl_dvpp -lascendcl): resizes a grey 64x32 NV12 picture
 * to 32x16 and checks a pixel. Exits 0 on success. */
#define ENABLE_DVPP_INTERFACE
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#include <stdio.h>
#include <string.h>

static acldvppPicDesc *picture(void *data, uint32_t w, uint32_t h) {
  acldvppPicDesc *d = acldvppCreatePicDesc();
  acldvppSetPicDescData(d, data);
  acldvppSetPicDescSize(d, w * h * 3 / 2);
  acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(d, w);
  acldvppSetPicDescHeight(d, h);
  acldvppSetPicDescWidthStride(d, w);
  acldvppSetPicDescHeightStride(d, h);
  return d;
}

int main(void) {
  unsigned char host[64 * 32 * 3 / 2], back[32 * 16 * 3 / 2];
  void *in = NULL, *out = NULL;
  aclrtStream stream = NULL;
  acldvppChannelDesc *channel;
  acldvppPicDesc *src, *dst;
  acldvppResizeConfig *config;
  int ok;
  memset(host, 77, sizeof host);
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS)
    return 1;
  if (acldvppMalloc(&in, sizeof host) != ACL_SUCCESS ||
      acldvppMalloc(&out, sizeof back) != ACL_SUCCESS)
    return 2;
  aclrtMemcpy(in, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
  channel = acldvppCreateChannelDesc();
  if (acldvppCreateChannel(channel) != ACL_SUCCESS) return 3;
  src = picture(in, 64, 32);
  dst = picture(out, 32, 16);
  config = acldvppCreateResizeConfig();
  if (acldvppVpcResizeAsync(channel, src, dst, config, stream) != ACL_SUCCESS) {
    printf("%s\n", aclGetRecentErrMsg());
    return 4;
  }
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 5;
  aclrtMemcpy(back, sizeof back, out, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST);
  ok = back[0] == 77 && back[sizeof back - 1] == 77;
  acldvppDestroyResizeConfig(config);
  acldvppDestroyPicDesc(src);
  acldvppDestroyPicDesc(dst);
  acldvppDestroyChannel(channel);
  acldvppDestroyChannelDesc(channel);
  acldvppFree(in);
  acldvppFree(out);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ok ? 0 : 6;
}

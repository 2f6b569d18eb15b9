/* A C program against hi_dvpp.h, linked by the C compiler with -lacl_dvpp_mpi -lascendcl as
 * CANN's build lines do: the headers are valid C11 and the library resizes a picture. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/dvpp/hi_dvpp.h"

#define CHECK(call)                                                                             \
  do {                                                                                          \
    long rc_ = (long)(call);                                                                    \
    if (rc_ != 0) {                                                                             \
      fprintf(stderr, "%s failed: %#lx %s\n", #call, (unsigned long)rc_, aclGetRecentErrMsg()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

int main(void) {
  hi_vpc_chn_attr attr;
  hi_vpc_pic_info in, out;
  hi_u32 task = 0;
  hi_u8 *bytes = NULL;
  void *src = NULL, *dst = NULL;
  hi_u32 i;
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(hi_mpi_sys_init());
  CHECK(hi_mpi_dvpp_malloc(0, &src, 64 * 32 * 3 / 2));
  CHECK(hi_mpi_dvpp_malloc(0, &dst, 32 * 16 * 3 / 2));
  bytes = (hi_u8 *)src;
  for (i = 0; i < 64 * 32 * 3 / 2; ++i) bytes[i] = 77; /* a flat picture resizes to itself */
  memset(&attr, 0, sizeof attr);
  CHECK(hi_mpi_vpc_create_chn(0, &attr));
  memset(&in, 0, sizeof in);
  in.picture_address = src;
  in.picture_buffer_size = 64 * 32 * 3 / 2;
  in.picture_width = in.picture_width_stride = 64;
  in.picture_height = in.picture_height_stride = 32;
  in.picture_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  out = in;
  out.picture_address = dst;
  out.picture_buffer_size = 32 * 16 * 3 / 2;
  out.picture_width = out.picture_width_stride = 32;
  out.picture_height = out.picture_height_stride = 16;
  CHECK(hi_mpi_vpc_resize(0, &in, &out, 0, 0, 0, &task, -1));
  CHECK(hi_mpi_vpc_get_process_result(0, task, -1));
  bytes = (hi_u8 *)dst;
  for (i = 0; i < 32 * 16 * 3 / 2; ++i)
    if (bytes[i] != 77) {
      fprintf(stderr, "byte %u is %u\n", i, bytes[i]);
      return 1;
    }
  CHECK(hi_mpi_vpc_destroy_chn(0));
  CHECK(hi_mpi_dvpp_free(src));
  CHECK(hi_mpi_dvpp_free(dst));
  CHECK(hi_mpi_sys_exit());
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}

/* Video buffer types of CANN's V2 media API. openacl has no VB pools: pictures and streams
 * live in hi_mpi_dvpp_malloc memory. */
#ifndef HI_DVPP_VB_H_
#define HI_DVPP_VB_H_

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef hi_u32 hi_vb_pool;

typedef enum {
    HI_VB_SRC_COMMON = 0,
    HI_VB_SRC_MOD = 1,
    HI_VB_SRC_PRIVATE = 2,
    HI_VB_SRC_USER = 3,
    HI_VB_SRC_BUTT
} hi_vb_src;

#ifdef __cplusplus
}
#endif

#endif /* HI_DVPP_VB_H_ */

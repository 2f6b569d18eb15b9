/* CANN's V2 media API (the hi_mpi_* calls), in libacl_dvpp_mpi: link -lacl_dvpp_mpi -lascendcl.
 * openacl runs it on the same JPEG, PNG and VPC units as acl/ops/acl_dvpp.h; docs/dvpp.md
 * lists what is implemented and what is not. Valid C (C11: anonymous unions). */
#ifndef HI_DVPP_H_
#define HI_DVPP_H_

#include "hi_dvpp_sys.h"
#include "hi_dvpp_vb.h"
#include "hi_dvpp_vdec.h"
#include "hi_dvpp_venc.h"
#include "hi_dvpp_vpc.h"
#include "hi_dvpp_pngd.h"

#endif /* HI_DVPP_H_ */

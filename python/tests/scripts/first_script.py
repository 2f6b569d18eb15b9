# The first script of docs/python.md, as a new user would run it.
import numpy as np
import acl

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

ret = acl.init()
ret = acl.rt.set_device(0)                       # also creates the default context and stream
context, ret = acl.rt.create_context(0)
stream, ret = acl.rt.create_stream()

data = np.arange(16, dtype=np.float32)
size = data.nbytes
dev_ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
host_bytes = data.tobytes()
ret = acl.rt.memcpy_async(dev_ptr, size, acl.util.bytes_to_ptr(host_bytes), size,
                          ACL_MEMCPY_HOST_TO_DEVICE, stream)
ret = acl.rt.synchronize_stream(stream)

result = np.zeros_like(data)
ret = acl.rt.memcpy(result.ctypes.data, size, dev_ptr, size, ACL_MEMCPY_DEVICE_TO_HOST)
print(result)

ret = acl.rt.free(dev_ptr)
ret = acl.rt.destroy_stream(stream)
ret = acl.rt.destroy_context(context)
ret = acl.rt.reset_device(0)
ret = acl.finalize()

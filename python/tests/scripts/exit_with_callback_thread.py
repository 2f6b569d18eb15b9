# Leaves a callback thread in acl.rt.process_report and ends without finalize: the process
# must still exit cleanly.
import acl

acl.init()
acl.rt.set_device(0)
ctx, _ = acl.rt.get_context()


def serve(args):
    acl.rt.set_context(args[0])
    while True:
        acl.rt.process_report(1)


tid, ret = acl.util.start_thread(serve, [ctx])
stream, _ = acl.rt.create_stream()
assert acl.rt.subscribe_report(tid, stream) == 0
assert acl.rt.launch_callback(lambda d: print("callback", d), 7, 1, stream) == 0
assert acl.rt.synchronize_stream(stream) == 0

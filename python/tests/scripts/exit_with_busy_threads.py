# Ends while an acl.util thread runs pure Python and a daemon thread sits in a blocking call.
import threading

import acl

acl.init()
acl.rt.set_device(0)


def busy(_):
    x = 0
    while True:
        x += 1


def sync_forever():
    while True:
        acl.rt.synchronize_device()


tid, ret = acl.util.start_thread(busy, [])
threading.Thread(target=sync_forever, daemon=True).start()
print("exiting")

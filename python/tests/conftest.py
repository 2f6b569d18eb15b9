"""Shared setup: one aclInit per test process (as in a real pyACL program), devices per test."""
import os

import pytest

import acl

ACL_SUCCESS = 0


@pytest.fixture(scope="session", autouse=True)
def acl_runtime():
    ret = acl.init()
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    yield
    assert acl.finalize() == ACL_SUCCESS


@pytest.fixture
def device():
    """Device 0 set for the test (its default context bound to the calling thread)."""
    device_id = 0
    assert acl.rt.set_device(device_id) == ACL_SUCCESS
    yield device_id
    assert acl.rt.reset_device(device_id) == ACL_SUCCESS


@pytest.fixture
def context(device):
    """An explicit context on device 0, current on the calling thread."""
    ctx, ret = acl.rt.create_context(device)
    assert ret == ACL_SUCCESS
    yield ctx
    assert acl.rt.destroy_context(ctx) == ACL_SUCCESS


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

// What the channel bindings of acl.media share.
//
// The Python callbacks of VDEC and VENC channels: a channel description holds one Python
// function (set with *_set_channel_desc_callback or the CALLBACK_PTR param); each send
// captures it with the frame's user_data, and the C callback, which runs on the thread
// subscribed to the channel inside acl.rt.process_report (GIL dropped), takes the GIL for the
// call, as acl.rt.launch_callback's trampoline does.
#pragma once

#include <acl/acl.h>

#include <map>
#include <stdexcept>

#include "common.h"

namespace openacl::py_acl {

// The Python function of each channel description (touched with the GIL held); dropped with
// the description. Never destroyed: runtime threads may outlive exit.
template <class Desc>
std::map<const Desc *, py::object> &channel_callbacks() {
  static auto *m = new std::map<const Desc *, py::object>();
  return *m;
}

// The function a send runs, as pyACL does: a description without one raises RuntimeError.
template <class Desc>
py::object channel_callback(const Desc *d) {
  auto it = channel_callbacks<Desc>().find(d);
  if (it == channel_callbacks<Desc>().end())
    throw std::runtime_error("did not set callback: call the *_set_channel_desc_callback first");
  return it->second;
}

// What one send carries as userData, alive until its callback has run.
struct ChannelCall {
  py::object fn;
  py::object user_data;
};

// The C callback of every channel: fn(input, output, user_data) with the descriptions as ints.
template <class In, class Out>
void run_channel_call(In *input, Out *output, void *user) {
  auto *call = static_cast<ChannelCall *>(user);
  if (interpreter_exiting()) return;
  py::gil_scoped_acquire gil;
  try {
    call->fn(to_int(input), to_int(output), call->user_data);
  } catch (py::error_already_set &e) {
    e.discard_as_unraisable("acl.media channel callback");
  }
  delete call;
}

// Sends one frame with the channel's function: `send(userData)` is the C call, made without
// the GIL (a full channel may wait for its callbacks, which need it).
template <class Desc, class Send>
aclError send_with_callback(const Desc *d, py::object user_data, Send &&send) {
  auto *call = new ChannelCall{channel_callback(d), std::move(user_data)};
  aclError ret;
  {
    NoGil released;
    ret = send(static_cast<void *>(call));
  }
  if (ret != ACL_SUCCESS) delete call;
  return ret;
}

// A Python value as the C type a *_set_channel_desc_param call takes; TypeError otherwise.
template <class T>
T param_value(const py::object &value) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error &) {
    throw py::type_error("the param value does not fit the param type");
  }
}

// pyACL's CSC-matrix forms of dvpp_ and vdec_set/get_channel_desc_param: the value is a uint32;
// set returns (channel_desc, ret), get returns (param_ret_size, value, ret).
template <class Desc, class Type, class Set>
py::tuple set_csc_param(Ptr d, int type, const py::object &value, Set set) {
  const auto v = param_value<uint32_t>(value);
  return py::make_tuple(d, set(to_ptr<Desc>(d), as_enum<Type>(type), sizeof v, &v));
}
template <class Desc, class Type, class Get>
py::tuple get_csc_param(Ptr d, int type, Get get) {
  uint32_t v = 0;
  size_t got = 0;
  aclError ret = get(to_ptr<const Desc>(d), as_enum<Type>(type), sizeof v, &got, &v);
  return py::make_tuple(got, v, ret);
}

}  // namespace openacl::py_acl

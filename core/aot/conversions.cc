// Conversions: x.to(...), x.cpu(), x.npu(), x.cuda(), x.float()/half()/...,
// x.type_as(y), x.contiguous(). What they record under AOT:
//  - Tensor.to (torch's python_variable_methods.cpp THPVariable_to, and
//    torch_npu's, which dispatches the same way): dtype only ->
//    to.dtype -> _to_copy(x, dtype=D); a device (with or without a dtype
//    taken from a tensor argument) -> to.device -> _to_copy(x, dtype=D,
//    device=V); a device alone -> dispatch_to(self, device) =
//    self.to(self.options().device(device)) -> _to_copy(x, dtype=x's,
//    layout=torch.strided, device=V). .cpu(), .cuda() and torch_npu's .npu()
//    (THPVariable_npu) take the device-alone path. A device without an index
//    gets the current one (ensure_has_index; airscope takes index 0).
//  - to_impl's fast path returns x itself, recording nothing, when dtype and
//    device are x's own and copy=False (to_will_alias,
//    aten/src/ATen/native/TensorConversions.cpp).
//  - .float()/.half()/... are to(dtype).
//  - type_as on an NPU tensor: TorchAir's py_impl on AutogradPrivateUse1,
//    `self.to(other.dtype)` (torchair/_utils/__init__.py:293-296); elsewhere
//    torch's CompositeImplicitAutograd `self.to(other.options())`.
//  - contiguous: x itself when contiguous, else clone(x,
//    memory_format=torch.contiguous_format).
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/aot/lowering_util.h"

namespace airscope {
namespace {

// A device argument: device(type='npu', index=0), 'npu', 'npu:0', or an int
// (an index of `default_type`).
std::optional<Device> DeviceOf(const Argument& arg, std::string_view default_type) {
  Device device;
  if (arg.kind() == Argument::Kind::kDevice) return arg.as_device();
  if (arg.kind() == Argument::Kind::kString && Device::Parse(arg.as_string(), &device)) return device;
  if (arg.kind() == Argument::Kind::kInt && !default_type.empty()) {
    device.type = std::string(default_type);
    device.index = static_cast<int>(arg.as_int());
    return device;
  }
  return std::nullopt;
}

// ensure_has_index: a CPU device has none; another takes the current index.
Device WithIndex(Device device) {
  if (device.type != "cpu" && device.index < 0) device.index = 0;
  return device;
}

struct ToRequest {
  std::optional<DType> dtype;
  std::optional<Device> device;
  bool layout = false;  // dispatch_to(self, device): layout=torch.strided is stated
  bool copy = false;
  bool non_blocking = false;
};

// to_impl: x itself when nothing changes, else _to_copy with the given options.
LoweringResult ToImpl(AtenBuilder& b, const Argument& self, const ToRequest& request, std::string* why) {
  const TensorMeta* meta = MetaOf(self);
  if (!meta) {
    *why = "the tensor's dtype and device are unknown";
    return std::nullopt;
  }
  std::optional<Device> device = request.device ? std::optional<Device>(WithIndex(*request.device)) : std::nullopt;
  if (device && meta->device.empty()) {
    *why = "the tensor's device is not stated, so whether .to() copies is unknown";
    return std::nullopt;
  }
  bool same_dtype = !request.dtype || *request.dtype == meta->dtype;
  bool same_device = !device || device->ToString() == meta->device;
  if (same_dtype && same_device && !request.copy) return self;
  std::vector<Kwarg> kwargs;
  if (request.dtype) kwargs.push_back({"dtype", Argument::OfDType(*request.dtype)});
  if (request.layout) kwargs.push_back({"layout", Argument::OfLayout(Layout::kStrided)});
  if (device) kwargs.push_back({"device", Argument::OfDevice(*device)});
  if (request.non_blocking) kwargs.push_back({"non_blocking", Argument::Bool(true)});
  return Ref(b.Call("aten._to_copy.default", {self}, std::move(kwargs)));
}

// Tensor.to(...) in each of its forms.
LoweringResult To(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  if (std::string extra = UnmodelledKwargs(call, {"dtype", "device", "non_blocking", "copy"}); !extra.empty()) {
    *why = "keyword '" + extra + "' is not modelled";
    return std::nullopt;
  }
  std::optional<DType> dtype;
  std::optional<Device> device;
  std::optional<Argument> other;
  size_t next = 1;
  if (next < call.args.size()) {
    const Argument& first = call.args[next];
    if (first.kind() == Argument::Kind::kDType) {
      dtype = first.as_dtype();
      ++next;
    } else if (first.is_node()) {
      other = first;
      ++next;
    } else if (auto d = DeviceOf(first, "")) {
      device = d;
      ++next;
      if (next < call.args.size() && call.args[next].kind() == Argument::Kind::kDType) {
        dtype = call.args[next].as_dtype();
        ++next;
      }
    }
  }
  std::optional<bool> non_blocking = BoolOf(next < call.args.size() ? &call.args[next] : nullptr, false);
  std::optional<bool> copy = BoolOf(next + 1 < call.args.size() ? &call.args[next + 1] : nullptr, false);
  if (next + 2 < call.args.size()) {
    *why = "more positional arguments than Tensor.to takes";
    return std::nullopt;
  }
  for (const Kwarg& kw : call.kwargs) {
    if (kw.name == "dtype" && kw.value.kind() == Argument::Kind::kDType) dtype = kw.value.as_dtype();
    if (kw.name == "device") device = DeviceOf(kw.value, "");
    if (kw.name == "non_blocking") non_blocking = BoolOf(&kw.value, false);
    if (kw.name == "copy") copy = BoolOf(&kw.value, false);
  }
  if (!non_blocking || !copy) {
    *why = "non_blocking or copy is not a constant";
    return std::nullopt;
  }
  ToRequest request;
  request.copy = *copy;
  request.non_blocking = *non_blocking;
  if (other) {
    const TensorMeta* t = MetaOf(*other);
    Device d;
    if (!t || t->device.empty() || !Device::Parse(t->device, &d)) {
      *why = "the other tensor's dtype or device is unknown";
      return std::nullopt;
    }
    request.dtype = t->dtype;
    request.device = d;
    return ToImpl(b, *self, request, why);
  }
  if (device && !dtype) {
    const TensorMeta* meta = MetaOf(*self);
    if (!meta) {
      *why = "the tensor's dtype is unknown";
      return std::nullopt;
    }
    request.dtype = meta->dtype;
    request.layout = true;
  } else {
    request.dtype = dtype;
  }
  request.device = device;
  if (!dtype && !device && !request.copy) return *self;  // x.to() returns x
  if (!dtype && !device) {
    // dispatch_to(self, non_blocking, copy): self's options, copied.
    const TensorMeta* meta = MetaOf(*self);
    Device own;
    if (!meta || meta->device.empty() || !Device::Parse(meta->device, &own)) {
      *why = "the tensor's device is not stated";
      return std::nullopt;
    }
    request.dtype = meta->dtype;
    request.layout = true;
    request.device = own;
  }
  return ToImpl(b, *self, request, why);
}

// x.cpu() / x.cuda([device]) / x.npu([device]): the device-alone path.
LoweringFn ToDevice(const std::string& type) {
  return [type](AtenBuilder& b, const TorchCall& call, std::string* why) -> LoweringResult {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    Device device;
    device.type = type;
    if (const Argument* arg = call.Arg(1, "device"); arg && !arg->is_none()) {
      auto given = DeviceOf(*arg, type);
      if (!given || given->type != type) {
        *why = fmt::format("the device is not a constant {} device", type);
        return std::nullopt;
      }
      device = *given;
    }
    const TensorMeta* meta = MetaOf(*self);
    if (!meta) {
      *why = "the tensor's dtype is unknown";
      return std::nullopt;
    }
    ToRequest request;
    request.dtype = meta->dtype;
    request.layout = true;
    request.device = device;
    // cuda()/npu() take (device=None, non_blocking=False); cpu() has no non_blocking.
    const Argument* flag = type == "cpu" ? nullptr : call.Arg(2, "non_blocking");
    std::optional<bool> non_blocking = BoolOf(flag, false);
    if (!non_blocking) {
      *why = "non_blocking is not a constant";
      return std::nullopt;
    }
    request.non_blocking = *non_blocking;
    return ToImpl(b, *self, request, why);
  };
}

// x.float() / x.half() / ...: to(dtype).
LoweringFn ToDType(DType dtype) {
  return [dtype](AtenBuilder& b, const TorchCall& call, std::string* why) -> LoweringResult {
    const Argument* self = Self(call, why);
    if (!self) return std::nullopt;
    if (call.args.size() > 1 || !call.kwargs.empty()) {
      *why = "arguments (memory_format=) are not modelled";
      return std::nullopt;
    }
    ToRequest request;
    request.dtype = dtype;
    return ToImpl(b, *self, request, why);
  };
}

LoweringResult TypeAs(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  const Argument* other = call.Arg(1, "other");
  if (!self) return std::nullopt;
  const TensorMeta* meta = MetaOf(*self);
  const TensorMeta* t = other ? MetaOf(*other) : nullptr;
  if (!meta || !t) {
    *why = "a dtype is unknown";
    return std::nullopt;
  }
  ToRequest request;
  request.dtype = t->dtype;
  if (meta->device.substr(0, 3) == "npu") return ToImpl(b, *self, request, why);  // TorchAir's py_impl
  Device device;
  if (t->device.empty() || !Device::Parse(t->device, &device)) {
    *why = "the other tensor's device is not stated";
    return std::nullopt;
  }
  request.layout = true;
  request.device = device;
  return ToImpl(b, *self, request, why);
}

LoweringResult Contiguous(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument* self = Self(call, why);
  if (!self) return std::nullopt;
  if (KnownContiguous(self->as_node())) return *self;
  return Ref(
      b.Call("aten.clone.default", {*self}, {{"memory_format", Argument::OfMemoryFormat(MemoryFormat::kContiguous)}}));
}

}  // namespace

void AddConversionLowerings(LoweringTable& table) {
  table["to"] = To;
  table["cpu"] = ToDevice("cpu");
  table["cuda"] = ToDevice("cuda");
  table["npu"] = ToDevice("npu");
  table["float"] = ToDType(DType::kFloat32);
  table["half"] = ToDType(DType::kFloat16);
  table["bfloat16"] = ToDType(DType::kBFloat16);
  table["double"] = ToDType(DType::kFloat64);
  table["int"] = ToDType(DType::kInt32);
  table["long"] = ToDType(DType::kInt64);
  table["bool"] = ToDType(DType::kBool);
  table["type_as"] = TypeAs;
  table["contiguous"] = Contiguous;
}

}  // namespace airscope

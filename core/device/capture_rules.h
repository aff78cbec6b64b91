// CaptureRules: what a stream capture refuses, as one list that `capture`
// (SimDevice::Capture, which stops at the first refusal, as the real call
// raises) and `capture check` (which lists every one) both apply.
//
// The capture modelled is TorchAir's: `torch_npu.npu.graph(...)` around the
// FX forward (acl_graph.py capture), i.e. torch_npu's NPUGraph::capture_begin
// / capture_end (csrc/core/npu/NPUGraph.cpp @9e73e708) over ACL's
// aclmdlRICaptureBegin / aclmdlRICaptureEnd. torch_npu's own checks come
// first and raise RuntimeError with their text (quoted verbatim); the ACL
// runtime's refusals carry the aclError codes of CANN's documentation
// (aclError, "透传RUNTIME的返回码列表": hiascend.com CANN runtime API
// aclcppdevg_03_1345; hicann/runtime docs/zh/api_ref/25-01_aclError.md) and
// the runtime's messages (hicann/runtime src/runtime/core/src/common/
// errcode_manage.cc). Rules, in the order a capture meets them:
//   begin  TASK_QUEUE_ENABLE=2 (NPUGraph.cpp:243-247); the default stream
//          (NPUGraph.cpp:270-274).
//   tasks  a stream synchronize (.item(), LocalScalarDenseNpu.cpp:23-25):
//          ACL_ERROR_RT_STREAM_CAPTURED 107027 in every mode; a blocking
//          host<->device copy (CopyKernel.cpp:141-159: stream synchronize,
//          then aclrtMemcpy): 107030 in modes global/thread_local, 107027 in
//          relaxed; a captured stream waiting on an event no captured task
//          recorded: ACL_ERROR_RT_CAPTURE_DEPENDENCY 107024.
//   end    another end stream (NPUGraph.cpp:348); a side stream not joined
//          back: ACL_ERROR_RT_STREAM_UNJOINED 107025; work that ran outside
//          the capture (airscope's refusal, see OutsideCapture below).
// A side stream joins the capture when it waits on an event recorded in the
// capture (CANN dev guide, cross-stream capture); its tasks before that run
// outside it.
//
// Contract: pure; reads the task graph only. Messages name the task, its
// stream and what to change.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/lower/task_graph.h"
#include "core/status.h"

namespace airscope {

// aclmdlRICaptureMode (CANN: ACL_MODEL_RI_CAPTURE_MODE_GLOBAL / _THREAD_LOCAL
// / _RELAXED), torch_npu's capture_error_mode. airscope has one host thread,
// the capturing one, so global and thread_local refuse the same calls.
enum class CaptureMode : uint8_t { kGlobal, kThreadLocal, kRelaxed };
std::string_view CaptureModeName(CaptureMode mode);  // "global", "thread_local", "relaxed"
Result<CaptureMode> ParseCaptureMode(std::string_view text);
std::vector<std::string> CaptureModeNames();

struct CaptureSetup {
  std::string capture_stream = "capture";  // "" or "default": the default stream
  std::string end_stream;                  // "" = the capture stream
  CaptureMode mode = CaptureMode::kGlobal;
  int task_queue_enable = 1;  // torch_npu's TASK_QUEUE_ENABLE (OptionsManager.cpp:570-584: 0, 1 or 2; default 1)
};

enum class CaptureRule : uint8_t {
  kTaskQueue,       // torch_npu: TASK_QUEUE_ENABLE=2
  kDefaultStream,   // torch_npu: capture on the default stream
  kStreamSync,      // ACL 107027: a stream synchronize (.item()) during capture
  kBlockingCopy,    // ACL 107030 / 107027: a blocking host<->device copy
  kUncapturedWait,  // ACL 107024: waiting on an event no captured task recorded
  kEndStream,       // torch_npu: capture ends on another stream
  kUnjoined,        // ACL 107025: a side stream not joined back
  kOutsideCapture,  // airscope: work on a stream that never joined the capture
};
std::string_view CaptureRuleName(CaptureRule rule);  // "unjoined", ...

struct CaptureViolation {
  CaptureRule rule;
  int64_t task = -1;   // the task it arises at; -1 at capture begin, tasks.size() at capture end
  std::string stream;  // the stream concerned ("" when none)
  std::string message;
};

// The task graph as captured: the default stream "" becomes `capture_stream`
// (the graph's default-stream work runs on the stream torch.npu.graph made
// current), listed first.
TaskGraph OnCaptureStream(const TaskGraph& graph, const std::string& capture_stream);

// Applies every rule to `captured` (streams already as OnCaptureStream
// leaves them), in issue order. first_only: stop at the first refusal, as a
// capture does; else list them all, going on past each as if the refused call
// had been left out.
std::vector<CaptureViolation> ApplyCaptureRules(const TaskGraph& captured, const CaptureSetup& setup, bool first_only);

// "task 3 'mm' (aten.mm.default)".
std::string CaptureTaskWhere(const DeviceTask& task);

}  // namespace airscope

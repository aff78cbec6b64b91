// The terminal timeline of a Trace: one row per track (the host, then each
// stream), a time axis with ticks and units, kernel names where they fit
// (else a fill character), waits drawn with their own character, then each
// stream's busy time, utilisation and longest idle gap with its cause.
//
// Contract: pure text, deterministic, exactly `width` columns of time.
#pragma once

#include <string>

#include "core/device/trace.h"

namespace airscope {

std::string RenderTimeline(const Trace& trace, int width);

}  // namespace airscope

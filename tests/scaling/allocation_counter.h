// Counts what operator new hands out in this test binary (allocation_counter.cc
// replaces the global operator new, which is why the scaling tests are a
// binary of their own): the work a command does, measured without a clock.
// A test compares two input sizes: linear work allocates about as many times
// more as the input grew, quadratic work that factor squared.
#pragma once

#include <cstdint>

namespace airscope::testing_alloc {

// Bytes allocated through operator new (and new[]) since the process
// started, in every thread; frees do not subtract.
uint64_t AllocatedBytes();

}  // namespace airscope::testing_alloc

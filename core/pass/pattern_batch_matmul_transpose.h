// TorchAir's BatchMatMulTranspose fusion (patterns/batch_matmul_transpose.py),
// one of the patterns apply_pattern_passes registers in ACL mode:
// bmm(x1, x2) -> [view] -> transpose becomes npu.npu_transpose_batchmatmul.
// Its entries are declared in pattern_entry.h (BatchMatMulTransposeEntries).
#pragma once

#include "core/pass/pattern_entry.h"

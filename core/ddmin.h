// Ddmin: Zeller and Hildebrandt's delta debugging minimisation ("Simplifying
// and Isolating Failure-Inducing Input", TSE 2002), over item indices.
//
// Contract: `test` is asked whether a subset of the items (ascending, never
// empty, never all of them) still shows the failure. Ddmin returns a subset
// that still shows it and from which no single item can be removed (1-minimal)
// when every test gave a verdict. A test that returns an error (Ctrl-C, a time
// limit) stops the search: the result is the smallest failing subset found
// so far and `stopped` carries the error. Deterministic: the same answers give
// the same questions in the same order.
//
// Order of questions: halves first (granularity 2), then finer chunks, each
// chunk before the complements. A failure caused by one item is therefore
// found with about two tests per halving, and the tested subsets shrink
// geometrically, so a test that costs time linear in its subset's size costs
// O(n) in all, not O(n log n).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "core/status.h"

namespace airscope {

// true: the subset still fails the same way (keep it); false: it does not.
using DdminTest = std::function<Result<bool>(const std::vector<size_t>& subset)>;

struct DdminResult {
  std::vector<size_t> kept;  // ascending
  size_t tries = 0;          // tests that gave a verdict
  Status stopped;            // OK: kept is 1-minimal; else what stopped the search early
};

// `items` must be ascending and distinct; with fewer than 2 items nothing is tested.
DdminResult Ddmin(std::vector<size_t> items, const DdminTest& test);

}  // namespace airscope

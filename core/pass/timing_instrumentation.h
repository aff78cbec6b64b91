// TimingInstrumentation: keeps the time of every pass run it observes, from
// the PassManager's own clock (PassTimed), so nothing is timed twice.
//
// Records are in run order; failed runs are kept and marked. Totals() sums
// by pass name in first-run order, for a `-time-passes`-style report.
#pragma once

#include <string>
#include <vector>

#include "core/pass/pass_manager.h"

namespace airscope {

struct PassTiming {
  std::string pass;
  double seconds = 0;
  bool failed = false;
};

struct PassTimingTotal {
  std::string pass;
  size_t runs = 0;
  double seconds = 0;
};

class TimingInstrumentation : public PassInstrumentation {
 public:
  void PassTimed(const PassInfo& pass, double seconds) override { records_.push_back({pass.name, seconds, false}); }
  void AfterPassFailed(const PassInfo& pass, const Graph& restored, const Status& error) override;

  const std::vector<PassTiming>& records() const { return records_; }
  std::vector<PassTimingTotal> Totals() const;
  double TotalSeconds() const;
  void Clear() { records_.clear(); }

 private:
  std::vector<PassTiming> records_;
};

}  // namespace airscope

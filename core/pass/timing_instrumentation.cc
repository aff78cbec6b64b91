#include "core/pass/timing_instrumentation.h"

namespace airscope {

void TimingInstrumentation::AfterPassFailed(const PassInfo& pass, const Graph&, const Status&) {
  // PassTimed always precedes AfterPassFailed for the same run.
  if (!records_.empty() && records_.back().pass == pass.name) records_.back().failed = true;
}

std::vector<PassTimingTotal> TimingInstrumentation::Totals() const {
  std::vector<PassTimingTotal> totals;
  for (const PassTiming& record : records_) {
    PassTimingTotal* total = nullptr;
    for (PassTimingTotal& t : totals) {
      if (t.pass == record.pass) total = &t;
    }
    if (!total) total = &totals.emplace_back(PassTimingTotal{record.pass, 0, 0});
    total->runs += 1;
    total->seconds += record.seconds;
  }
  return totals;
}

double TimingInstrumentation::TotalSeconds() const {
  double sum = 0;
  for (const PassTiming& record : records_) sum += record.seconds;
  return sum;
}

}  // namespace airscope

// In-flight temp files and staging directories, removed when a signal
// (SIGTERM, SIGHUP, SIGQUIT) ends the process while they exist.
//
// WriteFile's `.airscope-XXXXXX` temp file and `report`'s staging directory
// live for the length of one write; a process killed meanwhile left them
// behind (a 229 MB temp file was seen). When a signal ends the process, its
// handler is the only code that runs, and it reaches nothing but
// process-wide state: so the paths in flight are a fixed-size table (no
// allocation, read without locks), airscope's second mutable global after
// core/interrupt.h's counter, for the same reason. Everything else keeps its
// state in objects.
//
// Contract:
// - CreateTempFile/CreateTempDir make the temp (mkostemp/mkdtemp of a
//   template ending in XXXXXX) and register it in one step: a signal never
//   finds a temp that exists and is not registered (the three signals are
//   blocked in this thread meanwhile, and a handler on another thread waits
//   for the step to end).
// - The InFlightTemp they fill unregisters on Forget() or destruction: call
//   Forget() once the temp is renamed into place or removed.
// - The handler (InstallTempCleanupOnSignals) removes every registered
//   path (a directory with everything in it), then ends the process with
//   the signal's default action, so the exit status is the signal's. It
//   acts only in the process that installed it: a forked child (a graphviz
//   layout) that gets the signal leaves the parent's temps alone.
// - A table that is full (more than kMaxInFlightTemps writes at once) still
//   makes the temp; that one is just not removed by a signal.
#pragma once

#include <string>

#include "core/status.h"

namespace airscope {

inline constexpr int kMaxInFlightTemps = 16;

enum class TempKind : unsigned char { kFile, kDirectory };

// One registered temp; move-only.
class InFlightTemp {
 public:
  InFlightTemp() = default;
  InFlightTemp(const InFlightTemp&) = delete;
  InFlightTemp& operator=(const InFlightTemp&) = delete;
  InFlightTemp(InFlightTemp&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  InFlightTemp& operator=(InFlightTemp&& other) noexcept;
  ~InFlightTemp() { Forget(); }

  // No longer ours to remove: renamed into place, or removed.
  void Forget();
  bool registered() const { return slot_ >= 0; }

 private:
  friend Result<int> CreateTempFile(std::string& path_template, InFlightTemp& temp);
  friend Status CreateTempDir(std::string& path_template, InFlightTemp& temp);
  int slot_ = -1;
};

// mkostemp(O_CLOEXEC): `path_template` (ending in XXXXXX) becomes the name;
// returns the open file, 0600, registered in `temp`. Errors carry strerror.
Result<int> CreateTempFile(std::string& path_template, InFlightTemp& temp);
// mkdtemp: a new directory, 0700, registered in `temp`.
Status CreateTempDir(std::string& path_template, InFlightTemp& temp);

// Removes every registered temp now (async-signal-safe). For the ways out
// that skip destructors (the third Ctrl-C's _exit) and for the handler.
void RemoveInFlightTemps();

// SIGTERM, SIGHUP and SIGQUIT: RemoveInFlightTemps, then the signal's
// default action. A signal ignored when this is called (nohup's SIGHUP, a
// background job's SIGQUIT) is left ignored. Called once, by main.
void InstallTempCleanupOnSignals();

// How many temps are registered (tests).
int InFlightTempCount();

}  // namespace airscope

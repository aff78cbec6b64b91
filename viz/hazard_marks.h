// HazardMark: a hazard `check` found (core/check/hazards.h), said in the
// names of the graph's nodes rather than of device tasks, for the drawings
// that mark it (the DOT writer, the report's stage and device pages).
//
// A hazard names up to two tasks; a task is one node's work (an air.wait on
// several records makes one task per record, all of that node). Findings of
// one kind between the same two nodes (a race on two buffers) become one
// mark whose message holds each finding on a line. Marks keep FindHazards'
// order (by kind, then issue order): deterministic.
//
// Contract: pure. Viz never runs the checker for a drawing itself: which
// hazards belong to which drawn graph is the caller's call (the repl knows
// which graph `check` checked).
#pragma once

#include <string>
#include <vector>

#include "core/check/hazards.h"
#include "core/lower/task_graph.h"

namespace airscope {

struct HazardMark {
  std::string kind;     // HazardKindName: "race", "unrecorded wait", ...
  std::string first;    // the earlier task's node, "" when the finding names none
  std::string second;   // the later task's node, "" when none
  std::string message;  // the finding(s) as `check` prints them, one per line
};

std::vector<HazardMark> HazardMarks(const TaskGraph& tasks, const std::vector<Hazard>& hazards);

// What a drawing writes beside `node`, one of the nodes `mark` names: "KIND
// with OTHER" ("race with add"), or "KIND" when the mark names no other node.
std::string MarkNote(const HazardMark& mark, const std::string& node);

}  // namespace airscope

// DiffGraphs: node-level differences matched by name.
#include "core/pass/graph_diff.h"

#include <unordered_map>

namespace airscope {
namespace {

bool SameMeta(const NodeMeta* x, const NodeMeta* y) {
  if (!x || !y) return x == y;
  return *x == *y;
}

}  // namespace

GraphDiff DiffGraphs(const Graph& a, const Graph& b) {
  GraphDiff diff;
  for (const Node* node : a) {
    if (!b.Find(node->name())) diff.removed.push_back(node->name());
  }
  for (const Node* y : b) {
    const Node* x = a.Find(y->name());
    if (!x) {
      diff.added.push_back(y->name());
      continue;
    }
    NodeChange change{y->name(), {}};
    if (x->op() != y->op()) change.fields.push_back("op");
    if (x->target() != y->target()) change.fields.push_back("target");
    if (!SameArgs(x->args(), y->args())) change.fields.push_back("args");
    if (!SameKwargs(x->kwargs(), y->kwargs())) change.fields.push_back("kwargs");
    if (x->stream() != y->stream()) change.fields.push_back("stream");
    if (!SameMeta(x->meta(), y->meta())) change.fields.push_back("meta");
    if (!change.fields.empty()) diff.changed.push_back(std::move(change));
  }
  return diff;
}

}  // namespace airscope

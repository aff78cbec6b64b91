#include "viz/report/stack_tree.h"

#include <unordered_map>

namespace airscope {
namespace {

using json = nlohmann::json;

struct StackTrieNode {
  std::string frame;
  std::vector<size_t> children;  // in order of first appearance
  std::unordered_map<std::string, size_t> by_frame;
  std::vector<size_t> leaves;  // compiles whose stack ends here
};

json FrameJson(const std::string& frame) {
  size_t in = frame.rfind(" in ");
  if (in == std::string::npos) return {{"name", frame}, {"where", ""}};
  return {{"name", frame.substr(in + 4)}, {"where", frame.substr(0, in)}};
}

class TreeRowEmitter {
 public:
  TreeRowEmitter(const std::vector<StackTrieNode>& nodes, const std::vector<json>& leaves,
                 const StackTreeOptions& options)
      : nodes_(nodes), leaves_(leaves), options_(options) {}

  json Rows() {
    Children(0);
    return std::move(rows_);
  }

 private:
  void Here(size_t n) {
    if (nodes_[n].leaves.empty()) return;
    json here = json::array();
    for (size_t leaf : nodes_[n].leaves) here.push_back(leaves_[leaf]);
    rows_.push_back({{"st_here", {{"st_compiles", std::move(here)}}}});
  }

  // What follows node n: its one child's chain at this level, or a branch
  // per child one level in. Recurses only where stacks part.
  void Children(size_t n) {
    const std::vector<size_t>& children = nodes_[n].children;
    if (children.size() == 1) {
      Chain(children[0]);
      return;
    }
    for (size_t c : children) {
      rows_.push_back({{"st_branch", FrameJson(nodes_[c].frame)}});
      Here(c);
      Children(c);
      rows_.push_back({{"st_end", true}});
    }
  }

  // Node n and the frames below it, one per line, while each has one child.
  void Chain(size_t n) {
    std::vector<size_t> plain;  // frames with one child and no compile, not yet emitted
    for (size_t at = n;;) {
      const StackTrieNode& node = nodes_[at];
      if (node.leaves.empty() && node.children.size() == 1) {
        plain.push_back(at);
        at = node.children[0];
        continue;
      }
      Plain(plain);
      plain.clear();
      rows_.push_back({{"st_frame", FrameJson(node.frame)}});
      Here(at);
      if (node.children.size() == 1) {
        at = node.children[0];
        continue;
      }
      Children(at);
      return;
    }
  }

  void Plain(const std::vector<size_t>& run) {
    size_t folded =
        run.size() >= options_.fold_frames && run.size() > options_.kept_frames ? run.size() - options_.kept_frames : 0;
    if (folded > 0) {
      rows_.push_back({{"st_fold",
                        {{"count", folded},
                         {"from", FrameJson(nodes_[run.front()].frame)["name"]},
                         {"to", FrameJson(nodes_[run[folded - 1]].frame)["name"]}}}});
      for (size_t i = 0; i < folded; ++i) rows_.push_back({{"st_frame", FrameJson(nodes_[run[i]].frame)}});
      rows_.push_back({{"st_end", true}});
    }
    for (size_t i = folded; i < run.size(); ++i) rows_.push_back({{"st_frame", FrameJson(nodes_[run[i]].frame)}});
  }

  const std::vector<StackTrieNode>& nodes_;
  const std::vector<json>& leaves_;
  const StackTreeOptions& options_;
  json rows_ = json::array();
};

}  // namespace

json StackTreeRows(const std::vector<std::vector<std::string>>& stacks, const std::vector<json>& leaves,
                   const StackTreeOptions& options) {
  std::vector<StackTrieNode> nodes(1);  // the root, a frame of no one
  for (size_t i = 0; i < stacks.size() && i < leaves.size(); ++i) {
    if (stacks[i].empty()) continue;
    size_t at = 0;
    for (const std::string& frame : stacks[i]) {
      auto it = nodes[at].by_frame.find(frame);
      if (it == nodes[at].by_frame.end()) {
        size_t fresh = nodes.size();
        nodes[at].by_frame.emplace(frame, fresh);
        nodes[at].children.push_back(fresh);
        nodes.push_back({frame, {}, {}, {}});
        at = fresh;
      } else {
        at = it->second;
      }
    }
    nodes[at].leaves.push_back(i);
  }
  if (nodes.size() == 1) return json::array();
  return TreeRowEmitter(nodes, leaves, options).Rows();
}

}  // namespace airscope

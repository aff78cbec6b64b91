// Questions about where a node sits in its graph, answered without a layout:
// its K-hop neighbourhood (what it reads and what reads it), a shortest chain
// of data edges from one node to another, and everything a node depends on or
// feeds, transitively.
//
// "Producers" follow a node's arguments (its inputs), "users" follow its
// users; the neighbourhood is directed both ways from the centre and never
// sideways (a producer's other users are not in it: on an LLM graph the
// attention mask's 94 users would be in every neighbourhood otherwise).
//
// Contract: pure, reads the graph only, deterministic (results in graph
// order, ties broken by graph order). Work is proportional to what is found,
// except the transitive walks and DataPath, which touch at most the nodes
// between the two ends and keep one flag per node of the graph: a million-node
// graph answers in milliseconds. A graph must be in topological order (Lint's
// rule) for DataPath's pruning to hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct NearNode {
  const Node* node = nullptr;
  // Hops from the centre: 0 the centre, -k a producer k hops up (read through
  // k data edges), +k a user k hops down.
  int hops = 0;
};

struct Neighbourhood {
  std::vector<NearNode> nodes;  // in graph order, the centre among them
  size_t producers = 0;         // found, centre excluded
  size_t users = 0;
  // The walk stopped at `max_nodes`: more nodes are within the hops than listed.
  bool truncated = false;
};

// The nodes within `hops` data edges of `centre`, up through its inputs and
// down through its users; at most `max_nodes` (the nearest first, breadth first).
Neighbourhood NodesAround(const Graph& graph, const Node& centre, int hops, size_t max_nodes);

// A shortest chain of data edges from `from` to `to`, both included (from
// first); empty when `to` does not depend on `from`. A node to itself is the
// one-node chain.
std::vector<const Node*> DataPath(const Graph& graph, const Node& from, const Node& to);

// Everything that depends on `node` (kUsers) or that it depends on
// (kProducers), transitively, the node itself excluded.
enum class Direction : uint8_t { kProducers, kUsers };
struct Closure {
  std::vector<const Node*> nodes;  // in graph order
  int depth = 0;                   // the longest chain of hops to one of them
  // How many of them per op key (OpHistogramKey), most first, then by key.
  std::vector<std::pair<std::string, size_t>> by_op;
};
Closure TransitiveClosure(const Graph& graph, const Node& node, Direction direction);

}  // namespace airscope

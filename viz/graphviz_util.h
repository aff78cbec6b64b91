// The one place airscope talks to graphviz's C API directly: owners that free
// what graphviz allocates, the const_casts its char* signatures need, and a
// graph discipline that makes agwrite's output deterministic.
//
// Why a custom ID discipline: cgraph's default one uses the address of the
// interned name string as an object's ID, and agwrite orders subgraphs by ID,
// so cluster order would depend on the heap. Ours hands out IDs in creation
// order. Its IO discipline writes into a std::string (no FILE* needed).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "core/status.h"

namespace airscope::gv {

struct GraphCloser {
  void operator()(Agraph_t* graph) const { agclose(graph); }
};
using GraphPtr = std::unique_ptr<Agraph_t, GraphCloser>;

// graphviz takes char* but never writes through it; keep the cast here.
inline char* Str(const char* text) { return const_cast<char*>(text); }
inline char* Str(const std::string& text) { return const_cast<char*>(text.c_str()); }

// A new, empty directed graph using the deterministic discipline above.
GraphPtr OpenDirected(const std::string& name);

// Declares a default for every object of `kind` (AGRAPH, AGNODE, AGEDGE) in `graph`.
void SetDefault(Agraph_t* graph, int kind, const char* attribute, const std::string& value);
// Sets one object's attribute (declaring it with default "" if needed).
void Set(void* object, const char* attribute, const std::string& value);

// agwrite's DOT text for a graph made by OpenDirected.
Result<std::string> Write(Agraph_t* graph);

}  // namespace airscope::gv

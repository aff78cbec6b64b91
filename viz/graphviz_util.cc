#include "viz/graphviz_util.h"

#include <unordered_map>

namespace airscope::gv {
namespace {

// Per-graph ID state (cgraph calls open once per root graph and close on agclose).
struct IdState {
  Agraph_t* root;
  std::unordered_map<std::string, IDTYPE> ids;
  // Names as cgraph-interned strings: agwrite looks at the interned header to
  // tell HTML labels from plain ones, so a plain C++ string will not do. They
  // are released with the root graph's string table.
  std::unordered_map<IDTYPE, char*> names;
  IDTYPE next_named = 2;  // named objects get even IDs, anonymous ones odd, as in cgraph's own
  IDTYPE next_anonymous = 1;
};

void* IdOpen(Agraph_t* root, Agdisc_t*) { return new IdState{root, {}, {}}; }

long IdMap(void* state, int, char* str, IDTYPE* id, int createflag) {
  auto* s = static_cast<IdState*>(state);
  if (!str) {
    *id = s->next_anonymous;
    s->next_anonymous += 2;
    return 1;
  }
  auto it = s->ids.find(str);
  if (it != s->ids.end()) {
    *id = it->second;
    return 1;
  }
  if (!createflag) {
    *id = 0;  // as cgraph's default: no object has ID 0, so the lookup misses
    return 1;
  }
  s->ids.emplace(str, s->next_named);
  s->names.emplace(s->next_named, agstrdup(s->root, str));
  *id = s->next_named;
  s->next_named += 2;
  return 1;
}

long IdAlloc(void*, int, IDTYPE) { return 0; }  // explicit IDs are not offered
void IdFree(void*, int, IDTYPE) {}              // names live until the graph closes

char* IdPrint(void* state, int, IDTYPE id) {
  auto* s = static_cast<IdState*>(state);
  auto it = s->names.find(id);
  return it == s->names.end() ? nullptr : it->second;
}

void IdClose(void* state) { delete static_cast<IdState*>(state); }
void IdRegister(void*, int, void*) {}

int IoRead(void*, char*, int) { return 0; }  // never used to read
int IoPut(void* channel, const char* text) {
  static_cast<std::string*>(channel)->append(text);
  return 0;
}
int IoFlush(void*) { return 0; }

// Constant tables: graphviz keeps pointers to them but never writes them.
const Agiddisc_t kIdDisc = {IdOpen, IdMap, IdAlloc, IdFree, IdPrint, IdClose, IdRegister};
const Agiodisc_t kIoDisc = {IoRead, IoPut, IoFlush};
const Agdisc_t kDisc = {&AgMemDisc, const_cast<Agiddisc_t*>(&kIdDisc), const_cast<Agiodisc_t*>(&kIoDisc)};

}  // namespace

GraphPtr OpenDirected(const std::string& name) {
  return GraphPtr(agopen(Str(name), Agdirected, const_cast<Agdisc_t*>(&kDisc)));
}

void SetDefault(Agraph_t* graph, int kind, const char* attribute, const std::string& value) {
  agattr(graph, kind, Str(attribute), Str(value));
}

void Set(void* object, const char* attribute, const std::string& value) {
  agsafeset(object, Str(attribute), Str(value), Str(""));
}

Result<std::string> Write(Agraph_t* graph) {
  std::string out;
  if (agwrite(graph, &out) != 0) return Status::Error("graphviz could not write the DOT text");
  return out;
}

}  // namespace airscope::gv

#include "core/ir/graph.h"
#include "repl/session.h"

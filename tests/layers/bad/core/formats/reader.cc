#include "core/ir/graph.h"

#include <vector>

#include "core/analysis/stream_util.h"
#include "core/pass/pass.h"
#include "task_graph.h"

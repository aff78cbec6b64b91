// core/ir may use only base: both includes below break the layers.
#pragma once

#include "core/status.h"
#include "repl/session.h"
#include <viz/dot_writer.h>

// CPython's hashing and set order for ints and tuples of ints, reproduced
// exactly, for the places where TorchAir's output depends on them: a graph
// key appends str(hash(tuple(data_ptrs))) (acl_graph.py, ag:263-278), and
// generate_dynamic_dims_option lists its gear combinations as
// list(set(dynamic_dims)) (_gear_utils.py, gear:116-121), so the order of
// ge.dynamicDims is CPython's set iteration order.
//
// Neither depends on PYTHONHASHSEED: only str and bytes hashes are salted.
// The hashes are CPython >= 3.8's on a 64-bit build (Python/pyhash.c,
// Objects/tupleobject.c tuplehash); the set is Objects/setobject.c
// (set_add_entry, set_insert_clean, set_table_resize: LINEAR_PROBES 9,
// PERTURB_SHIFT 5, PySet_MINSIZE 8, resized to 4*used when fill*5 >=
// mask*3), unchanged from 3.7 to 3.13.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace airscope {

// hash(n) for a Python int: n modulo 2**61-1 (sign kept), -1 becomes -2.
int64_t PythonIntHash(int64_t value);
// hash(tuple(items)) of Python ints.
int64_t PythonTupleHash(std::span<const int64_t> items);
// list(set(items)) for a list of tuples of ints: the distinct tuples in the
// order CPython's set iterates them.
std::vector<std::vector<int64_t>> PythonSetOrder(const std::vector<std::vector<int64_t>>& items);

}  // namespace airscope

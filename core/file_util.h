// Whole-file reads and atomic writes. The only place core touches the file
// system, so tests and callers see one behaviour for missing files, size
// limits and interrupted writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace airscope {

// Refuses files larger than max_bytes with a message naming the limit.
Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes = uint64_t{4} << 30);

// Writes to `path.tmp.<pid>` then renames over `path`: a reader never sees a
// partial file, and an interrupted write leaves none behind.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

}  // namespace airscope

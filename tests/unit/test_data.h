// The folder of the tests' data files (tests/unit/data), as the build passes
// it (AIRSCOPE_TEST_DATA); one definition, so test files can share a build unit.
#pragma once

#include <string>

namespace airscope::testing_util {

inline const std::string kData = AIRSCOPE_TEST_DATA;

}  // namespace airscope::testing_util

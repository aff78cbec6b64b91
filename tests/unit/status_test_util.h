// ASSERT_OK_AND_ASSIGN(lhs, expr): evaluates `expr` (a Result<T>); if it
// failed, the test fails with its message and the calling TEST body returns;
// else the value is moved into `lhs` (a declaration or an lvalue). The way a
// test takes a value out of a Result: dereferencing a failed Result is
// undefined behaviour in a Release build, not a test failure.
#pragma once

#include <gtest/gtest.h>

#include "core/status.h"

#define AIRSCOPE_TEST_CONCAT_INNER(a, b) a##b
#define AIRSCOPE_TEST_CONCAT(a, b) AIRSCOPE_TEST_CONCAT_INNER(a, b)
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL(AIRSCOPE_TEST_CONCAT(result_at_line_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL(result, lhs, expr)                      \
  auto result = (expr);                                                   \
  ASSERT_TRUE(result.ok()) << #expr << ": " << result.status().message(); \
  lhs = std::move(result).value()

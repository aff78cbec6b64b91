// Status and Result<T>: how errors that user input can cause cross module lines.
//
// Contract: a Status is either OK or carries a human-readable message that is
// complete on its own (it already names file:line:col where there is a file).
// Nothing in airscope throws across a module boundary; code that can fail on
// user input returns Status or Result<T>. Programming errors (broken
// invariants) may still assert.
#pragma once

#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace airscope {

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message), true); }
  template <typename... Args>
  static Status Errorf(fmt::format_string<Args...> format, Args&&... args) {
    return Error(fmt::format(format, std::forward<Args>(args)...));
  }

  // An error about column `column` of a line that the code finding it does
  // not hold (a word of a command line): its message already names the
  // column, and whoever holds the line quotes it later. Built by ColumnError
  // (core/scanner.h), which says more.
  static Status UnquotedColumnError(std::string message, size_t column) {
    Status status(std::move(message), true);
    status.unquoted_column_ = column;
    return status;
  }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& message() const { return message_; }
  // The 1-based column of an UnquotedColumnError whose line is still to be
  // quoted; 0 for every other status.
  size_t unquoted_column() const { return unquoted_column_; }

  // Returns this error with `context: ` in front (e.g. a file name). The
  // headline grows at its start, so an unquoted column stays one.
  Status WithPrefix(std::string_view context) const {
    if (ok()) return *this;
    Status prefixed = Error(fmt::format("{}: {}", context, message_));
    prefixed.unquoted_column_ = unquoted_column_;
    return prefixed;
  }

 private:
  Status(std::string message, bool failed) : message_(std::move(message)), failed_(failed) {}
  std::string message_;
  bool failed_ = false;
  size_t unquoted_column_ = 0;
};

// Either a value or an error Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}                                  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status& status() const { return status_; }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace airscope

// Propagates a failed Status from an expression returning Status.
#define AIRSCOPE_RETURN_IF_ERROR(expr)           \
  do {                                           \
    ::airscope::Status _airscope_st = (expr);    \
    if (!_airscope_st.ok()) return _airscope_st; \
  } while (0)

// Declares `lhs` with the value of an expression returning Result<T>, or
// returns its error Status from the enclosing function:
//   AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, session.CurrentGraph());
//   AIRSCOPE_ASSIGN_OR_RETURN(LoadedGraph loaded, LoadGraphFile(path, limit, registry, name));
// The value is moved out of the Result; `lhs` may be any declaration (auto,
// const, a reference to a type the Result owns is not: the Result is a
// temporary of the statement's scope).
#define AIRSCOPE_ASSIGN_OR_RETURN(lhs, ...) \
  AIRSCOPE_ASSIGN_OR_RETURN_IMPL_(AIRSCOPE_STATUS_CONCAT_(_airscope_result_, __LINE__), lhs, __VA_ARGS__)
#define AIRSCOPE_ASSIGN_OR_RETURN_IMPL_(result, lhs, ...) \
  auto result = (__VA_ARGS__);                            \
  if (!result.ok()) return result.status();               \
  lhs = std::move(result).value()
#define AIRSCOPE_STATUS_CONCAT_(a, b) AIRSCOPE_STATUS_CONCAT_IMPL_(a, b)
#define AIRSCOPE_STATUS_CONCAT_IMPL_(a, b) a##b

#include "core/ir/tensor_meta.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <string_view>

#include <fmt/format.h>

namespace airscope {
namespace {

std::string JoinDims(const std::vector<Dim>& dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    out += dims[i].ToString();
  }
  return out;
}

bool AllDigits(std::string_view s) {
  if (s.starts_with('-')) s.remove_prefix(1);
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// Parses the inside of `[...]` starting at text[*pos] == '['; on success
// *pos is just past the `]` and `starts` holds where each item begins.
Status ParseDimList(std::string_view text, size_t* pos, std::vector<Dim>* dims, std::vector<size_t>* starts,
                    std::string_view what, size_t* error_offset) {
  size_t i = *pos + 1;
  size_t item_start = i;
  int depth = 0;
  auto add_item = [&](size_t end) -> Status {
    std::string_view item = Trim(text.substr(item_start, end - item_start), " ");
    size_t at = static_cast<size_t>(item.data() - text.data());
    if (item.empty()) {
      *error_offset = item_start;
      return Status::Errorf("expected a {}", what);
    }
    if (AllDigits(item)) {
      // A number, however long: past int64 it is an error, never a symbol named by its digits.
      Result<int64_t> value = ParseSizeNumber(item, what);
      if (!value.ok()) {
        *error_offset = at;
        return value.status();
      }
      if (*value < 0) {
        *error_offset = at;
        return Status::Errorf("negative {} {}", what, *value);
      }
      dims->emplace_back(*value);
    } else {
      // A symbolic size is a sympy expression: names, numbers, arithmetic
      // and calls such as Mod(s0, 2). Anything else is damage, not a symbol.
      for (size_t k = 0; k < item.size(); ++k) {
        char c = item[k];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  std::string_view("_ +-*/%(),.").find(c) != std::string_view::npos;
        if (!ok) {
          *error_offset = at + k;
          return Status::Errorf("'{}' is neither a {} nor a symbolic expression", item, what);
        }
      }
      dims->push_back(Dim::Symbol(std::string(item)));
    }
    starts->push_back(at);
    return Status::Ok();
  };
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == ']')) {
      bool empty_list = c == ']' && dims->empty() && Trim(text.substr(item_start, i - item_start), " ").empty();
      if (!empty_list) AIRSCOPE_RETURN_IF_ERROR(add_item(i));
      item_start = i + 1;
      if (c == ']') {
        *pos = i + 1;
        return Status::Ok();
      }
    }
  }
  *error_offset = text.size();
  return Status::Error("expected ']'");
}

}  // namespace

Dim Dim::Symbol(std::string expr) {
  Dim dim;
  dim.symbol_ = std::move(expr);
  return dim;
}

bool Dim::is_single_symbol() const {
  return !symbol_.empty() && std::isalpha(static_cast<unsigned char>(symbol_[0])) &&
         std::all_of(symbol_.begin(), symbol_.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string Dim::ToString() const { return is_static() ? fmt::format("{}", value_) : symbol_; }

std::vector<Dim> TensorMeta::EffectiveStrides() const { return strides.empty() ? ContiguousStrides() : strides; }

bool TensorMeta::HasNonContiguousStrides() const { return !strides.empty() && strides != ContiguousStrides(); }

std::vector<Dim> TensorMeta::ContiguousStrides() const {
  std::vector<Dim> out(sizes.size());
  int64_t running = 1;
  bool symbolic = false;
  std::string running_sym;
  for (size_t i = sizes.size(); i-- > 0;) {
    out[i] = symbolic ? Dim::Symbol(running_sym) : Dim(running);
    const Dim& size = sizes[i];
    if (!symbolic && size.is_static()) {
      running *= size.value();
    } else {
      std::string lhs = symbolic ? running_sym : fmt::format("{}", running);
      running_sym = lhs == "1" ? size.ToString() : fmt::format("{}*{}", lhs, size.ToString());
      symbolic = true;
    }
  }
  return out;
}

std::optional<int64_t> TensorMeta::NumElements() const {
  int64_t n = 1;
  for (const Dim& d : sizes) {
    // Sizes come from files; a count past int64 is not a tensor airscope can size.
    if (!d.is_static() || __builtin_mul_overflow(n, d.value(), &n)) return std::nullopt;
  }
  return n;
}

std::optional<int64_t> TensorMeta::NumBytes() const {
  auto n = NumElements();
  int64_t bytes = 0;
  if (!n || dtype == DType::kUnknown || __builtin_mul_overflow(*n, ItemSize(dtype), &bytes)) return std::nullopt;
  return bytes;
}

std::string TensorMeta::ShapeString() const { return fmt::format("{}[{}]", ShortName(dtype), JoinDims(sizes)); }

std::string TensorMeta::ToAnnotation() const {
  std::string out = ShapeString();
  if (!strides.empty() || !device.empty()) {
    out += fmt::format("[{}]{}", JoinDims(EffectiveStrides()), device);
  }
  return out;
}

Result<TensorMeta> TensorMeta::ParseAnnotation(std::string_view text, size_t* error_offset) {
  size_t scratch = 0;
  size_t* err = error_offset ? error_offset : &scratch;
  size_t bracket = text.find('[');
  if (bracket == std::string_view::npos) {
    *err = text.size();
    return Status::Errorf("expected '[' after the dtype in \"{}\"", text);
  }
  TensorMeta meta;
  auto dtype = ParseShortDType(text.substr(0, bracket));
  if (!dtype) {
    *err = 0;
    return Status::Errorf("unknown dtype '{}' (expected f32, f16, bf16, i64, b8, ...)", text.substr(0, bracket));
  }
  meta.dtype = *dtype;
  size_t pos = bracket;
  std::vector<size_t> starts;  // where each size, then each stride, begins
  AIRSCOPE_RETURN_IF_ERROR(ParseDimList(text, &pos, &meta.sizes, &starts, "size", err));
  if (pos < text.size() && text[pos] == '[') {
    AIRSCOPE_RETURN_IF_ERROR(ParseDimList(text, &pos, &meta.strides, &starts, "stride", err));
    if (meta.strides.size() != meta.sizes.size()) {
      *err = bracket;
      return Status::Errorf("{} strides for {} sizes", meta.strides.size(), meta.sizes.size());
    }
  }
  std::string_view device = text.substr(pos);
  for (size_t i = 0; i < device.size(); ++i) {
    char c = device[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ':' || c == '_';
    if (!ok) {
      *err = pos + i;
      return Status::Errorf("unexpected '{}' after the shape", c);
    }
  }
  meta.device = std::string(device);
  size_t bad = 0;
  if (Status sized = CheckTensorSize(meta, &bad); !sized.ok()) {
    *err = bad < starts.size() ? starts[bad] : bracket;
    return sized;
  }
  return meta;
}

Status CheckTensorSize(const TensorMeta& meta, size_t* bad_dim) {
  size_t scratch = 0;
  size_t* bad = bad_dim ? bad_dim : &scratch;
  if (!meta.strides.empty() && meta.strides.size() != meta.sizes.size()) {
    *bad = meta.sizes.size();
    return Status::Errorf("{} strides for {} sizes", meta.strides.size(), meta.sizes.size());
  }
  for (size_t i = 0; i < meta.strides.size(); ++i) {
    const Dim& d = meta.strides[i];
    if (d.is_static() && d.value() < 0) {
      *bad = meta.sizes.size() + i;
      return Status::Errorf("negative stride {}", d.value());
    }
  }
  int64_t elements = 1;
  for (size_t i = 0; i < meta.sizes.size(); ++i) {
    const Dim& d = meta.sizes[i];
    if (!d.is_static()) continue;  // a symbol's range is its guards' business
    *bad = i;
    if (d.value() < 0) return Status::Errorf("negative size {}", d.value());
    if (__builtin_mul_overflow(elements, d.value(), &elements)) {
      return Status::Errorf("{} has more elements than int64 counts (at size {} of dim {})", meta.ShapeString(),
                            d.value(), i);
    }
  }
  // The byte count wraps first for a wide dtype: f64[2^61, 2] counts, and is 2^65 bytes.
  int64_t bytes = 0;
  if (meta.dtype != DType::kUnknown && __builtin_mul_overflow(elements, ItemSize(meta.dtype), &bytes)) {
    *bad = meta.sizes.empty() ? 0 : meta.sizes.size() - 1;
    return Status::Errorf("{} is more bytes than int64 counts ({} elements of {} bytes)", meta.ShapeString(), elements,
                          ItemSize(meta.dtype));
  }
  return Status::Ok();
}

Result<int64_t> ParseSizeNumber(std::string_view text, std::string_view what) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return Status::Errorf("{} {} does not fit int64 (at most {})", what, text, std::numeric_limits<int64_t>::max());
  }
  if (ec != std::errc() || ptr != text.data() + text.size()) return Status::Errorf("'{}' is not a {}", text, what);
  return value;
}

std::string NodeMeta::ShapeString() const {
  switch (kind) {
    case ValueKind::kTensor: return tensors.empty() ? "" : tensors[0].ShapeString();
    case ValueKind::kTuple: {
      std::string out = "(";
      for (size_t i = 0; i < tensors.size(); ++i) {
        if (i) out += ", ";
        const TensorMeta& t = tensors[i];
        out += t.dtype == DType::kUnknown && t.sizes.empty() ? "None" : t.ShapeString();
      }
      return out + ")";
    }
    case ValueKind::kSymInt:
    case ValueKind::kOpaque: break;
  }
  return annotation;
}

}  // namespace airscope

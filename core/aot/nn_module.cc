// ParseModuleSpec and the parameters of each module type. Signatures and
// parameter shapes are torch's (torch/nn/modules/linear.py, conv.py,
// batchnorm.py, normalization.py, sparse.py, dropout.py, activation.py,
// pooling.py, flatten.py).
#include "core/aot/nn_module.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <set>

#include "core/fx/arg_parser.h"
#include "core/fx/python_repr.h"
#include "core/scanner.h"

namespace airscope {
namespace {

struct Param {
  std::string name;
  std::optional<Argument> fallback;  // nullopt: required
};

Argument Tuple(const std::vector<int64_t>& values) {
  std::vector<Argument> items;
  for (int64_t v : values) items.push_back(Argument::Int(v));
  return Argument::Tuple(std::move(items));
}

const std::map<std::string, std::vector<Param>, std::less<>>& Signatures() {
  static const auto* table = [] {
    auto* t = new std::map<std::string, std::vector<Param>, std::less<>>();
    Argument none = Argument::None();
    (*t)["Linear"] = {{"in_features", {}}, {"out_features", {}}, {"bias", Argument::Bool(true)}};
    for (const char* conv : {"Conv1d", "Conv2d"}) {
      (*t)[conv] = {
          {"in_channels", {}},          {"out_channels", {}},           {"kernel_size", {}},
          {"stride", Argument::Int(1)}, {"padding", Argument::Int(0)},  {"dilation", Argument::Int(1)},
          {"groups", Argument::Int(1)}, {"bias", Argument::Bool(true)}, {"padding_mode", Argument::String("zeros")}};
    }
    for (const char* bn : {"BatchNorm1d", "BatchNorm2d"}) {
      (*t)[bn] = {{"num_features", {}},
                  {"eps", Argument::Float(1e-5)},
                  {"momentum", Argument::Float(0.1)},
                  {"affine", Argument::Bool(true)},
                  {"track_running_stats", Argument::Bool(true)}};
    }
    (*t)["LayerNorm"] = {{"normalized_shape", {}},
                         {"eps", Argument::Float(1e-5)},
                         {"elementwise_affine", Argument::Bool(true)},
                         {"bias", Argument::Bool(true)}};
    (*t)["GroupNorm"] = {
        {"num_groups", {}}, {"num_channels", {}}, {"eps", Argument::Float(1e-5)}, {"affine", Argument::Bool(true)}};
    (*t)["Embedding"] = {{"num_embeddings", {}},
                         {"embedding_dim", {}},
                         {"padding_idx", none},
                         {"max_norm", none},
                         {"norm_type", Argument::Float(2.0)},
                         {"scale_grad_by_freq", Argument::Bool(false)},
                         {"sparse", Argument::Bool(false)}};
    (*t)["Dropout"] = {{"p", Argument::Float(0.5)}, {"inplace", Argument::Bool(false)}};
    (*t)["ReLU"] = {{"inplace", Argument::Bool(false)}};
    (*t)["SiLU"] = {{"inplace", Argument::Bool(false)}};
    (*t)["GELU"] = {{"approximate", Argument::String("none")}};
    (*t)["Tanh"] = {};
    (*t)["Sigmoid"] = {};
    (*t)["Identity"] = {};
    (*t)["Softmax"] = {{"dim", none}};
    (*t)["MaxPool2d"] = {{"kernel_size", {}},
                         {"stride", none},
                         {"padding", Argument::Int(0)},
                         {"dilation", Argument::Int(1)},
                         {"return_indices", Argument::Bool(false)},
                         {"ceil_mode", Argument::Bool(false)}};
    (*t)["AvgPool2d"] = {{"kernel_size", {}},
                         {"stride", none},
                         {"padding", Argument::Int(0)},
                         {"ceil_mode", Argument::Bool(false)},
                         {"count_include_pad", Argument::Bool(true)},
                         {"divisor_override", none}};
    (*t)["AdaptiveAvgPool2d"] = {{"output_size", {}}};
    (*t)["Flatten"] = {{"start_dim", Argument::Int(1)}, {"end_dim", Argument::Int(-1)}};
    return t;
  }();
  return *table;
}

// ---- the repr's arguments, on the shared Scanner (core/scanner.h): values
// are ArgParser's Python literals (ints, floats, True/False/None, 'strings',
// (tuples, ...), inf, nan, torch.float32 ...), and a bare word is a string,
// since shells strip quotes (`GELU(approximate=tanh)`). Errors name the
// column in the text as given and quote it with a caret.
class ReprReader {
 public:
  // `scan` is at the first argument, limited to the closing ')'.
  explicit ReprReader(Scanner& scan) : scan_(scan) {}

  bool AtEnd() {
    scan_.SkipSpaces();
    return scan_.AtEnd();
  }
  bool Eat(char c) {
    scan_.SkipSpaces();
    return scan_.Consume(c);
  }
  size_t pos() const { return scan_.pos(); }
  // `name=` (consumed), or "" with the cursor where it was.
  std::string_view Keyword() {
    size_t at = scan_.SkipSpaces();
    std::string_view word = scan_.Ident();
    scan_.SkipSpaces();
    if (!word.empty() && scan_.PeekIs('=') && scan_.Peek(1) != '=') {
      scan_.Advance();
      return word;
    }
    scan_.Seek(at);
    return {};
  }

  Result<Argument> Value() {
    size_t at = scan_.SkipSpaces();
    if (std::optional<Argument> word = BareWord()) return *std::move(word);
    ArgParser literals(scan_, ArgDialect::kPython, nullptr);
    Argument value;
    if (!literals.ParseValue({}, &value)) return scan_.Failure();
    if (ContainsRaw(value)) return scan_.Error(at, fmt::format("cannot read '{}' as a value", scan_.Since(at)));
    return value;
  }

 private:
  // A word that is not a Python literal, alone as the value: a string.
  std::optional<Argument> BareWord() {
    size_t at = scan_.pos();
    std::string_view word = scan_.Ident();
    size_t end = scan_.pos();
    scan_.SkipSpaces();
    bool alone = !word.empty() && (scan_.AtEnd() || scan_.PeekIs(','));
    if (!alone || word == "None" || word == "True" || word == "False" || word == "inf" || word == "nan") {
      scan_.Seek(at);
      return std::nullopt;
    }
    scan_.Seek(end);
    return Argument::String(std::string(word));
  }
  static bool ContainsRaw(const Argument& value) {
    if (value.kind() == Argument::Kind::kRaw) return true;
    if (!value.is_sequence()) return false;
    for (const Argument& item : value.items()) {
      if (ContainsRaw(item)) return true;
    }
    return false;
  }

  Scanner& scan_;
};

bool IsIntOrInts(const Argument& arg) {
  if (arg.kind() == Argument::Kind::kInt) return true;
  if (!arg.is_sequence()) return false;
  for (const Argument& item : arg.items()) {
    if (item.kind() != Argument::Kind::kInt) return false;
  }
  return true;
}

// Each argument's kind as the constructor takes it.
Status CheckField(const std::string& type, const std::string& name, const Argument& value) {
  auto bad = [&](std::string_view want) {
    return Status::Errorf("{}: {} must be {}, got {}", type, name, want, FormatPythonArg(value));
  };
  bool is_none = value.is_none();
  static const std::set<std::string, std::less<>> kBools = {
      "bias",           "affine",    "track_running_stats", "elementwise_affine", "inplace",
      "return_indices", "ceil_mode", "count_include_pad",   "scale_grad_by_freq", "sparse"};
  static const std::set<std::string, std::less<>> kInts = {
      "in_features", "out_features", "in_channels",    "out_channels",  "groups",    "num_features",
      "num_groups",  "num_channels", "num_embeddings", "embedding_dim", "start_dim", "end_dim"};
  static const std::set<std::string, std::less<>> kFloats = {"eps", "p", "norm_type"};
  if (kBools.count(name)) return value.kind() == Argument::Kind::kBool ? Status::Ok() : bad("True or False");
  if (kInts.count(name)) return value.kind() == Argument::Kind::kInt ? Status::Ok() : bad("an int");
  if (kFloats.count(name)) {
    return value.kind() == Argument::Kind::kFloat || value.kind() == Argument::Kind::kInt ? Status::Ok()
                                                                                          : bad("a number");
  }
  if (name == "momentum" || name == "max_norm") {
    return is_none || value.kind() == Argument::Kind::kFloat || value.kind() == Argument::Kind::kInt
               ? Status::Ok()
               : bad("a number or None");
  }
  if (name == "padding_idx" || name == "dim" || name == "divisor_override") {
    return is_none || value.kind() == Argument::Kind::kInt ? Status::Ok() : bad("an int or None");
  }
  if (name == "kernel_size" || name == "dilation" || name == "normalized_shape") {
    return IsIntOrInts(value) ? Status::Ok() : bad("an int or a tuple of ints");
  }
  if (name == "stride") return is_none || IsIntOrInts(value) ? Status::Ok() : bad("an int or a tuple of ints");
  if (name == "padding") {
    return IsIntOrInts(value) || value.kind() == Argument::Kind::kString ? Status::Ok()
                                                                         : bad("an int, a tuple of ints or a string");
  }
  if (name == "output_size") {
    if (value.kind() == Argument::Kind::kInt) return Status::Ok();
    if (value.is_sequence()) {
      for (const Argument& item : value.items()) {
        if (item.kind() != Argument::Kind::kInt && !item.is_none()) return bad("an int or a tuple of ints/None");
      }
      return Status::Ok();
    }
    return bad("an int or a tuple of ints/None");
  }
  if (name == "approximate") {
    if (value.kind() == Argument::Kind::kString && (value.as_string() == "none" || value.as_string() == "tanh")) {
      return Status::Ok();
    }
    return bad("'none' or 'tanh'");
  }
  if (name == "padding_mode") return value.kind() == Argument::Kind::kString ? Status::Ok() : bad("a string");
  return Status::Ok();
}

}  // namespace

const Argument& ModuleSpec::Field(std::string_view name) const { return fields.find(std::string(name))->second; }

int64_t ModuleSpec::Int(std::string_view name) const { return Field(name).as_int(); }

bool ModuleSpec::Bool(std::string_view name) const { return Field(name).as_bool(); }

std::vector<int64_t> ModuleSpec::Ints(std::string_view name, size_t n) const {
  const Argument& value = Field(name);
  if (value.kind() == Argument::Kind::kInt) return std::vector<int64_t>(n, value.as_int());
  std::vector<int64_t> out;
  for (const Argument& item : value.items()) out.push_back(item.as_int());
  if (out.size() == 1 && n > 1) out.resize(n, out[0]);
  return out;
}

const ModuleSpec* ModuleTable::Find(std::string_view target) const {
  auto it = modules_.find(target);
  return it == modules_.end() ? nullptr : &it->second;
}

std::vector<std::string> KnownModuleTypes() {
  std::vector<std::string> out;
  for (const auto& [name, params] : Signatures()) out.push_back(name);
  return out;
}

Result<ModuleSpec> ParseModuleSpec(std::string_view text) {
  const std::string_view given = text;  // columns count from here
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  ModuleSpec spec;
  spec.text = std::string(text);
  for (std::string_view prefix : {"torch.nn.modules.", "torch.nn.", "nn."}) {
    if (text.substr(0, prefix.size()) == prefix) {
      text.remove_prefix(prefix.size());
      break;
    }
  }
  size_t open = text.find('(');
  if (open == std::string_view::npos || text.back() != ')') {
    return Status::Errorf(
        "expected a module as torch prints it, e.g. Linear(in_features=64, out_features=256, "
        "bias=True); got '{}'",
        spec.text);
  }
  spec.type = std::string(text.substr(0, open));
  auto signature = Signatures().find(spec.type);
  if (signature == Signatures().end()) {
    return Status::Errorf("module type '{}' is not modelled (known: {})", spec.type,
                          fmt::join(KnownModuleTypes(), ", "));
  }
  const std::vector<Param>& params = signature->second;
  size_t base = static_cast<size_t>(text.data() - given.data());
  Scanner scan(given, {.filename = {}, .line = 0});
  scan.Seek(base + open + 1);
  scan.Limit(base + text.size() - 1);  // before the closing ')'
  ReprReader reader(scan);
  size_t positional = 0;
  bool keywords = false;
  while (!reader.AtEnd()) {
    // `name=value` or a positional value.
    std::string_view name = reader.Keyword();
    if (!name.empty()) {
      keywords = true;
    } else if (keywords) {
      reader.AtEnd();  // to the argument, for the caret
      return scan.ErrorHere("a positional argument follows a keyword argument").WithPrefix(spec.type);
    }
    auto value = reader.Value();
    if (!value.ok()) return value.status().WithPrefix(spec.type);
    std::string field;
    if (name.empty()) {
      if (positional >= params.size()) {
        return Status::Errorf("{}: takes at most {} positional argument(s)", spec.type, params.size());
      }
      field = params[positional++].name;
    } else {
      field = std::string(name);
      bool known = false;
      for (const Param& p : params) known = known || p.name == field;
      if (!known) {
        std::vector<std::string> names;
        for (const Param& p : params) names.push_back(p.name);
        return Status::Errorf("{}: no argument '{}' ({})", spec.type, field,
                              names.empty() ? "it takes none" : fmt::format("{}", fmt::join(names, ", ")));
      }
    }
    if (spec.fields.count(field)) return Status::Errorf("{}: argument '{}' given twice", spec.type, field);
    AIRSCOPE_RETURN_IF_ERROR(CheckField(spec.type, field, *value));
    spec.fields.emplace(field, std::move(*value));
    if (!reader.AtEnd() && !reader.Eat(',')) {
      return scan.ErrorHere("expected ',' between arguments").WithPrefix(spec.type);
    }
  }
  for (const Param& p : params) {
    if (spec.fields.count(p.name)) continue;
    if (!p.fallback) return Status::Errorf("{}: missing argument '{}'", spec.type, p.name);
    spec.fields.emplace(p.name, *p.fallback);
  }
  if (spec.type == "LayerNorm" && spec.Field("normalized_shape").kind() == Argument::Kind::kInt) {
    spec.fields["normalized_shape"] = Tuple({spec.Int("normalized_shape")});  // LayerNorm makes an int a tuple
  }
  return spec;
}

std::vector<ModuleTensor> ModuleParameters(const ModuleSpec& spec) {
  const std::string& t = spec.type;
  if (t == "Linear") {
    std::vector<ModuleTensor> out = {{"weight", {spec.Int("out_features"), spec.Int("in_features")}}};
    if (spec.Bool("bias")) out.push_back({"bias", {spec.Int("out_features")}});
    return out;
  }
  if (t == "Conv1d" || t == "Conv2d") {
    size_t n = t == "Conv1d" ? 1 : 2;
    int64_t groups = spec.Int("groups");
    std::vector<int64_t> weight = {spec.Int("out_channels"), groups > 0 ? spec.Int("in_channels") / groups : 0};
    for (int64_t k : spec.Ints("kernel_size", n)) weight.push_back(k);
    std::vector<ModuleTensor> out = {{"weight", weight}};
    if (spec.Bool("bias")) out.push_back({"bias", {spec.Int("out_channels")}});
    return out;
  }
  if (t == "BatchNorm1d" || t == "BatchNorm2d") {
    if (!spec.Bool("affine")) return {};
    return {{"weight", {spec.Int("num_features")}}, {"bias", {spec.Int("num_features")}}};
  }
  if (t == "LayerNorm") {
    if (!spec.Bool("elementwise_affine")) return {};
    std::vector<int64_t> shape = spec.Ints("normalized_shape", 1);
    std::vector<ModuleTensor> out = {{"weight", shape}};
    if (spec.Bool("bias")) out.push_back({"bias", shape});
    return out;
  }
  if (t == "GroupNorm") {
    if (!spec.Bool("affine")) return {};
    return {{"weight", {spec.Int("num_channels")}}, {"bias", {spec.Int("num_channels")}}};
  }
  if (t == "Embedding") return {{"weight", {spec.Int("num_embeddings"), spec.Int("embedding_dim")}}};
  return {};
}

std::vector<ModuleTensor> ModuleBuffers(const ModuleSpec& spec) {
  if ((spec.type == "BatchNorm1d" || spec.type == "BatchNorm2d") && spec.Bool("track_running_stats")) {
    int64_t c = spec.Int("num_features");
    ModuleTensor tracked{"num_batches_tracked", {}, true};
    return {{"running_mean", {c}}, {"running_var", {c}}, tracked};
  }
  return {};
}

}  // namespace airscope

// A deliberately small reader for the subset of torch's readable graph code
// that the sample files use, so the op rules can be checked against every
// annotated node of tests/data/*.readable.py before (and independently of)
// the real FX/readable loaders in core/fx. Not a general parser: it knows
// forward(...) placeholders, `x: "f32[..]" = self.attr`, and
// `x[: "ann"] = torch.ops.<op>(args)` / `operator.getitem(...)` lines with
// names, numbers, None/True/False, int lists, dtypes, memory formats and
// device(type='cpu') as arguments.
#pragma once

#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace airscope::testing {

struct SampleNode {
  std::string name;
  std::string annotation;  // "" when the line has none (tuples)
};

class SampleSubsetReader {
 public:
  // Builds the graph; *annotated gets every node with an annotation.
  static Result<std::unique_ptr<Graph>> Read(const std::string& path, std::vector<SampleNode>* annotated) {
    std::ifstream in(path);
    if (!in) return Status::Errorf("cannot open {}", path);
    auto graph = std::make_unique<Graph>();
    std::string line;
    while (std::getline(in, line)) {
      std::string_view text = Trim(line);
      if (text.starts_with("class ") || text.starts_with("return") || text.empty() || text.starts_with("#")) continue;
      if (text.starts_with("def forward(self")) {
        size_t open = text.find('(');
        size_t close = text.rfind(')');
        std::string_view params = text.substr(open + 1, close - open - 1);
        for (std::string_view p : SplitTopLevel(params)) {
          if (p == "self") continue;
          size_t colon = p.find(':');
          std::string name(Trim(p.substr(0, colon)));
          std::string ann(Unquote(Trim(p.substr(colon + 1))));
          AIRSCOPE_RETURN_IF_ERROR(AddLeaf(*graph, OpKind::kPlaceholder, name, name, ann, annotated));
        }
        continue;
      }
      size_t eq = text.find(" = ");
      if (eq == std::string_view::npos) return Status::Errorf("{}: cannot read line: {}", path, text);
      std::string_view lhs = text.substr(0, eq), rhs = text.substr(eq + 3);
      std::string name(Trim(lhs.substr(0, lhs.find(':'))));
      std::string ann;
      if (lhs.find(':') != std::string_view::npos) ann = Unquote(Trim(lhs.substr(lhs.find(':') + 1)));
      if (rhs.starts_with("self.")) {
        AIRSCOPE_RETURN_IF_ERROR(AddLeaf(*graph, OpKind::kGetAttr, name, std::string(rhs.substr(5)), ann, annotated));
        continue;
      }
      size_t open = rhs.find('(');
      NodeSpec spec;
      spec.op = OpKind::kCallFunction;
      spec.target = std::string(rhs.substr(0, open));
      spec.name = name;
      for (std::string_view item : SplitTopLevel(rhs.substr(open + 1, rhs.size() - open - 2))) {
        size_t kw = item.find(" = ");
        if (kw != std::string_view::npos && item.find('(') > kw) {
          auto value = ParseValue(*graph, Trim(item.substr(kw + 3)));
          if (!value.ok()) return value.status();
          spec.kwargs.push_back({std::string(Trim(item.substr(0, kw))), *value});
        } else {
          auto value = ParseValue(*graph, item);
          if (!value.ok()) return value.status();
          spec.args.push_back(*value);
        }
      }
      auto node = graph->AppendNamed(std::move(spec));
      if (!node.ok()) return node.status();
      if (!ann.empty()) {
        AIRSCOPE_RETURN_IF_ERROR(Annotate(*node, ann));
        annotated->push_back({name, ann});
      }
    }
    return graph;
  }

 private:
  static std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }
  static std::string Unquote(std::string_view s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return std::string(s);
  }
  static std::vector<std::string_view> SplitTopLevel(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (c == ',' && depth == 0) {
        if (!Trim(s.substr(start, i - start)).empty()) out.push_back(Trim(s.substr(start, i - start)));
        start = i + 1;
      }
    }
    if (!Trim(s.substr(start)).empty()) out.push_back(Trim(s.substr(start)));
    return out;
  }
  static Status Annotate(Node* node, const std::string& ann) {
    auto meta = TensorMeta::ParseAnnotation(ann);
    if (!meta.ok()) return meta.status().WithPrefix(node->name());
    NodeMeta nm;
    nm.tensors.push_back(*meta);
    node->set_meta(nm);
    return Status::Ok();
  }
  static Status AddLeaf(Graph& graph, OpKind op, const std::string& name, const std::string& target,
                        const std::string& ann, std::vector<SampleNode>* annotated) {
    NodeSpec spec;
    spec.op = op;
    spec.name = name;
    spec.target = target;
    auto node = graph.AppendNamed(std::move(spec));
    if (!node.ok()) return node.status();
    if (!ann.empty()) {
      AIRSCOPE_RETURN_IF_ERROR(Annotate(*node, ann));
      annotated->push_back({name, ann});
    }
    return Status::Ok();
  }
  static Result<Argument> ParseValue(const Graph& graph, std::string_view s) {
    if (s == "None") return Argument::None();
    if (s == "True") return Argument::Bool(true);
    if (s == "False") return Argument::Bool(false);
    if (s == "inf") return Argument::Float(INFINITY);
    if (s == "-inf") return Argument::Float(-INFINITY);
    if (s.starts_with("[")) {
      std::vector<Argument> items;
      for (std::string_view item : SplitTopLevel(s.substr(1, s.size() - 2))) {
        auto v = ParseValue(graph, item);
        if (!v.ok()) return v;
        items.push_back(*v);
      }
      return Argument::List(std::move(items));
    }
    if (s.starts_with("device(type='")) {
      size_t end = s.find('\'', 13);
      return Argument::OfDevice(Device{std::string(s.substr(13, end - 13)), -1});
    }
    MemoryFormat format;
    if (ParseMemoryFormat(s, &format)) return Argument::OfMemoryFormat(format);
    if (auto dtype = ParseTorchDType(s); dtype && s.starts_with("torch.")) return Argument::OfDType(*dtype);
    int64_t i = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && ptr == s.data() + s.size()) return Argument::Int(i);
    double d = 0;
    auto [dptr, dec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (dec == std::errc() && dptr == s.data() + s.size()) return Argument::Float(d);
    if (Node* n = graph.Find(s)) return Argument::NodeRef(n);
    return Status::Errorf("cannot read argument '{}'", s);
  }
};

}  // namespace airscope::testing

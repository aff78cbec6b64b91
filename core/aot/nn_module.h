// Declared torch.nn modules of a Dynamo graph's call_module nodes.
//
// Dynamo's text (`self.L__self___fc(x)`, `call_module[target=L__self___fc]`)
// does not say what a submodule is, and neither TORCH_LOGS graph_code nor
// TORCH_TRACE's dynamo_output_graph prints the submodules. The user declares
// one with the repr torch prints for it (`print(model)`):
//   Linear(in_features=64, out_features=256, bias=True)
//   Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)
// ParseModuleSpec binds the repr to the module's constructor signature
// (torch/nn/modules/*.py), checking the type and every argument; `aot` then
// lifts the module's parameters and buffers as graph inputs (as
// aot_module_simplified does with named_parameters/named_buffers) and lowers
// the call as the module's forward() traces in eval mode (nn_modules.cc).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/argument.h"
#include "core/ir/tensor_meta.h"
#include "core/status.h"

namespace airscope {

struct ModuleSpec {
  std::string type;                        // "Linear" (a torch.nn./nn. prefix is dropped)
  std::map<std::string, Argument> fields;  // every constructor argument, defaults filled in
  std::string text;                        // as declared, for listings

  const Argument& Field(std::string_view name) const;  // asserts the field exists
  int64_t Int(std::string_view name) const;
  bool Bool(std::string_view name) const;
  // An int or a tuple of ints as `n` ints (kernel_size=3 -> [3, 3]).
  std::vector<int64_t> Ints(std::string_view name, size_t n) const;
};

// A parameter or buffer of a module, in registration order.
struct ModuleTensor {
  std::string name;  // "weight", "running_mean"
  std::vector<int64_t> sizes;
  bool int64 = false;  // num_batches_tracked; else the module's input dtype
};

// The declared modules of one graph, by call_module target.
class ModuleTable {
 public:
  const ModuleSpec* Find(std::string_view target) const;
  void Set(std::string target, ModuleSpec spec) { modules_[std::move(target)] = std::move(spec); }
  const std::map<std::string, ModuleSpec, std::less<>>& all() const { return modules_; }
  bool empty() const { return modules_.empty(); }

 private:
  std::map<std::string, ModuleSpec, std::less<>> modules_;
};

// Parses `Type(args...)`; errors name the offending argument ("Linear: no
// argument 'in_feature' (in_features, out_features, bias)").
Result<ModuleSpec> ParseModuleSpec(std::string_view text);

// The module types ParseModuleSpec knows, sorted (for help and errors).
std::vector<std::string> KnownModuleTypes();

// named_parameters() then named_buffers() of the module, in torch's order.
std::vector<ModuleTensor> ModuleParameters(const ModuleSpec& spec);
std::vector<ModuleTensor> ModuleBuffers(const ModuleSpec& spec);

}  // namespace airscope

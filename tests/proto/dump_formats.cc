// dump_formats OUT_DIR SAMPLE...: writes NAME.pbtxt, NAME.ge.txt and NAME.dot
// for each FX readable sample (parsed, shapes inferred), so check_pbtxt.sh
// can validate them with protoc and graphviz. Exit status 1 on any failure.
#include <cstdio>
#include <filesystem>
#include <string>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "viz/dot_writer.h"
#include "formats/ge_writer.h"
#include "formats/pbtxt_writer.h"

namespace {

bool Write(const std::string& path, const airscope::Result<std::string>& text) {
  if (!text.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), text.status().message().c_str());
    return false;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = std::fwrite(text->data(), 1, text->size(), f) == text->size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: dump_formats OUT_DIR SAMPLE.readable.py...\n");
    return 2;
  }
  std::string out = argv[1];
  int status = 0;
  for (int i = 2; i < argc; ++i) {
    std::string path = argv[i];
    auto text = airscope::ReadFile(path);
    auto graph = text.ok() ? airscope::ParseReadable(*text, path)
                           : airscope::Result<std::unique_ptr<airscope::Graph>>(text.status());
    if (!graph.ok()) {
      std::fprintf(stderr, "%s\n", graph.status().message().c_str());
      status = 1;
      continue;
    }
    airscope::InferShapes(**graph, airscope::OpRegistry::Builtin());
    std::string name = std::filesystem::path(path).filename().string();
    name = name.substr(0, name.find('.'));
    std::string base = out + "/" + name;
    if (!Write(base + ".pbtxt", airscope::GraphToPbtxt(**graph)) ||
        !Write(base + ".ge.txt", airscope::GraphToGeText(**graph, name)) ||
        !Write(base + ".dot", airscope::GraphToDot(**graph))) {
      status = 1;
    }
  }
  return status;
}

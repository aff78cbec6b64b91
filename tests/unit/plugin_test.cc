// C++ pass plugins: the shipped seed plugin loads and does exactly what the
// airscript seed pass does; broken plugins are refused with clear messages
// and register nothing.
#include <gtest/gtest.h>
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/pass/pass_manager.h"
#include "fifo_test_util.h"
#include "pass_test_util.h"
#include "repl/command_table.h"
#include "repl/completion.h"
#include "repl/interpreter.h"
#include "repl/plugin_loader.h"
#include "repl/session.h"

namespace airscope {
namespace {

using testing_util::Describe;
using testing_util::LoadSeedGraph;

TEST(PluginTest, SeedPluginDoesTheSeedExample) {
  PassRegistry registry = PassRegistry::WithBuiltins();
  PluginSet plugins;
  Result<LoadedPlugin> loaded = plugins.Load(AIRSCOPE_SEED_PLUGIN, registry);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->passes, std::vector<std::string>{"seed_multistream_cpp"});
  const PassInfo* pass = registry.Find("seed_multistream_cpp");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->kind, PassKind::kUser);

  // Through custom_pre, as a user registers it; same graph as the airscript pass.
  ASSERT_TRUE(registry.Register(testing_util::SeedRewritePass()).ok());
  PassManager manager;
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.passes = &registry;
  std::unique_ptr<Graph> via_plugin = LoadSeedGraph();
  context.custom_pre = {"seed_multistream_cpp"};
  ASSERT_TRUE(manager.Run(*registry.Find("custom_pre"), *via_plugin, context).ok());
  std::unique_ptr<Graph> via_airscript = LoadSeedGraph();
  context.custom_pre = {"multistream"};
  ASSERT_TRUE(manager.Run(*registry.Find("custom_pre"), *via_airscript, context).ok());
  EXPECT_EQ(Describe(*via_plugin), Describe(*via_airscript));
  EXPECT_EQ(Describe(*via_plugin)[4], "record = air.record.default()");

  // Loading the same file twice is refused; the first load stays.
  Result<LoadedPlugin> again = plugins.Load(AIRSCOPE_SEED_PLUGIN, registry);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("is already loaded"), std::string::npos);
  EXPECT_EQ(plugins.loaded().size(), 1u);
}

std::string LoadError(const std::string& path) {
  PassRegistry registry = PassRegistry::WithBuiltins();
  size_t before = registry.All().size();
  PluginSet plugins;
  Result<LoadedPlugin> loaded = plugins.Load(path, registry);
  EXPECT_EQ(registry.All().size(), before) << path;
  EXPECT_TRUE(plugins.loaded().empty());
  return loaded.ok() ? "loaded" : loaded.status().message();
}

TEST(PluginTest, BrokenPluginsAreRefusedWithTheReason) {
  std::string missing = LoadError("/no/such/plugin.so");
  EXPECT_EQ(missing.rfind("cannot load plugin /no/such/plugin.so: ", 0), 0u) << missing;
  EXPECT_EQ(LoadError(AIRSCOPE_NO_ENTRY_PLUGIN),
            fmt::format("{} is not an airscope plugin: it does not export airscope_plugin_api_version (see "
                        "core/pass/plugin_api.h)",
                        AIRSCOPE_NO_ENTRY_PLUGIN));
  EXPECT_EQ(LoadError(AIRSCOPE_WRONG_VERSION_PLUGIN),
            fmt::format("plugin {} was built for plugin API version 1001, this airscope has version 1: rebuild it "
                        "against this airscope's headers",
                        AIRSCOPE_WRONG_VERSION_PLUGIN));
  EXPECT_EQ(LoadError(AIRSCOPE_FAILING_INIT_PLUGIN),
            fmt::format("plugin {}: init failed (7): the frobnicator is not configured", AIRSCOPE_FAILING_INIT_PLUGIN));
  // A name without a slash is a file in the working directory, not a search
  // of the system library path (which would find libm and call it "not a plugin").
  std::string bare = LoadError("libm.so.6");
  EXPECT_EQ(bare.rfind("cannot load plugin libm.so.6: ./libm.so.6: No such file or directory", 0), 0u) << bare;
  // A truncated shared object is refused before dlopen, which would die of
  // SIGBUS touching the missing part of a mapped segment.
  std::string whole;
  {
    std::ifstream in(AIRSCOPE_NO_ENTRY_PLUGIN, std::ios::binary);
    whole.assign(std::istreambuf_iterator<char>(in), {});
  }
  // Where the loadable part ends depends on the linker (ld.bfd pads segments
  // to pages, lld packs them and leaves only symbols and section headers
  // after them, which dlopen does not need): cut inside the program header
  // table, and one byte short of the last loadable segment's end.
  Elf64_Ehdr header;
  ASSERT_GT(whole.size(), sizeof(header));
  std::memcpy(&header, whole.data(), sizeof(header));
  size_t loadable_end = 0;
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    ASSERT_LE(header.e_phoff + (i + 1u) * sizeof(segment), whole.size());
    std::memcpy(&segment, whole.data() + header.e_phoff + size_t{i} * header.e_phentsize, sizeof(segment));
    if (segment.p_type == PT_LOAD) loadable_end = std::max<size_t>(loadable_end, segment.p_offset + segment.p_filesz);
  }
  ASSERT_GT(loadable_end, header.e_phoff + 8);
  for (size_t keep : {size_t{header.e_phoff + 8}, loadable_end - 1}) {
    std::string cut = (std::filesystem::temp_directory_path() / fmt::format("airscope_cut_{}.so", keep)).string();
    std::ofstream(cut, std::ios::binary) << whole.substr(0, keep);
    std::string error = LoadError(cut);
    EXPECT_EQ(error.rfind(fmt::format("{} is a truncated ELF file ({} bytes): ", cut, keep), 0), 0u) << error;
    std::filesystem::remove(cut);
  }
  // A text file is not a shared object: dlopen's reason is passed on.
  std::string text = LoadError(std::string(AIRSCOPE_TEST_DATA) + "/seed_multistream.graph.txt");
  EXPECT_NE(text.find("cannot load plugin"), std::string::npos) << text;
}

// A plugin is a regular file (issue 29 item 2): dlopen of a FIFO blocked
// `plugin load` for ever; a device would be read as long as it gives bytes.
// Neither is opened.
TEST(PluginTest, AFifoOrADeviceIsNoPlugin) {
  std::string fifo = (std::filesystem::temp_directory_path() / fmt::format("airscope_plugin_{}", ::getpid())).string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    testing_fifo::FifoUnblocker unblock({fifo}, 1000);  // ends the old code's blocked open
    EXPECT_EQ(LoadError(fifo), fmt::format("cannot load plugin {0}: {0} is a FIFO, not a shared object file", fifo));
    EXPECT_EQ(unblock.opened(), 0);
  }
  std::filesystem::remove(fifo);
  EXPECT_EQ(LoadError("/dev/zero"),
            "cannot load plugin /dev/zero: /dev/zero is a character device, not a shared object file");
}

class Sink : public OutputSink {
 public:
  Status Output(const CommandOutput& out) override {
    text += out.Text();
    return Status::Ok();
  }
  void Error(std::string_view message) override { text += std::string(message) + "\n"; }
  std::string text;
};

TEST(PluginTest, PluginLoadCommand) {
  Session session;
  CommandTable table = BuildCommandTable();
  Sink sink;
  Interpreter interpreter(session, table, sink);
  ASSERT_TRUE(interpreter.ExecuteLine(std::string("plugin load ") + AIRSCOPE_SEED_PLUGIN).ok());
  EXPECT_EQ(sink.text, fmt::format("loaded plugin {}: seed_multistream_cpp\n", AIRSCOPE_SEED_PLUGIN));
  ASSERT_TRUE(interpreter.ExecuteLine("pass add pre seed_multistream_cpp").ok());
  EXPECT_EQ(session.custom_pre_passes(), std::vector<std::string>{"seed_multistream_cpp"});
  Status bad = interpreter.ExecuteLine(std::string("plugin load ") + AIRSCOPE_WRONG_VERSION_PLUGIN);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("plugin API version 1001"), std::string::npos);
  EXPECT_FALSE(interpreter.ExecuteLine("plugin unload x").ok());
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(PassCommandsTest, CompletionOfPassNamesAndDefineThroughTheInterpreter) {
  Session session;
  CommandTable table = BuildCommandTable();
  Sink sink;
  Interpreter interpreter(session, table, sink);
  for (const char* line : {"pass define mine", "  on aten.mm.default: set stream s1", "end", "pass add post mine"}) {
    Status status = interpreter.ExecuteLine(line);
    ASSERT_TRUE(status.ok()) << line << ": " << status.message();
  }
  EXPECT_EQ(session.custom_post_passes(), std::vector<std::string>{"mine"});
  EXPECT_EQ(Complete(table, session, "help pass apply_event_").candidates,
            (std::vector<std::string>{"apply_event_closure_with_multi_stream", "apply_event_record"}));
  EXPECT_EQ(Complete(table, session, "pass add pre mi").candidates, std::vector<std::string>{"mine"});
  EXPECT_EQ(Complete(table, session, "pass add p").candidates, (std::vector<std::string>{"post", "pre"}));
  EXPECT_EQ(Complete(table, session, "pass l").candidates, std::vector<std::string>{"list"});
  // A bad rule is refused as it is typed, with its line and column; the
  // block stays open, the rule is typed again and the block ends well.
  ASSERT_TRUE(interpreter.ExecuteLine("pass define mine").ok());
  Status bad = interpreter.ExecuteLine("  on aten.mm.default: set strem s1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(),
            "pass define mine: line 1, column 27: expected 'stream' after 'set' (the line was left out; the block is "
            "still open: type it again, or end)\n"
            "      on aten.mm.default: set strem s1\n"
            "                              ^");
  ASSERT_TRUE(interpreter.in_block());
  ASSERT_TRUE(interpreter.ExecuteLine("  on aten.mm.default: set stream s1").ok());
  ASSERT_TRUE(interpreter.ExecuteLine("end").ok());
  ASSERT_NE(session.passes().Find("mine"), nullptr);
  EXPECT_EQ(session.passes().Find("mine")->summary, "rewrite pass, 1 rule");
  // A block whose `end` fails keeps the definition it would have replaced.
  ASSERT_TRUE(interpreter.ExecuteLine("pass define mine").ok());
  ASSERT_FALSE(interpreter.ExecuteLine("  on aten.mm.default: set strem s1").ok());
  ASSERT_FALSE(interpreter.ExecuteLine("end").ok());  // no rules left
  EXPECT_EQ(session.passes().Find("mine")->summary, "rewrite pass, 1 rule");
}

}  // namespace
}  // namespace airscope

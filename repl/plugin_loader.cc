#include "repl/plugin_loader.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/pass/plugin_api.h"

namespace airscope {
namespace {

// What a plugin's init hands back through the host callbacks.
struct HostState {
  std::vector<PassInfo> passes;
  std::string error;
};

int RegisterPassCallback(AirscopePluginHost* host, const PassInfo* pass) {
  auto* state = static_cast<HostState*>(host->host_data);
  if (!pass || pass->name.empty()) {
    state->error = "register_pass was given a pass without a name";
    return 1;
  }
  PassInfo copy = *pass;
  copy.kind = PassKind::kUser;
  state->passes.push_back(std::move(copy));
  return 0;
}

void SetErrorCallback(AirscopePluginHost* host, const char* message) {
  static_cast<HostState*>(host->host_data)->error = message ? message : "";
}

// dlopen maps a shared object's segments as its program headers say; if the
// file is shorter than they say, touching the missing part kills the
// process with SIGBUS inside dlopen. So an ELF file is checked first: its
// program headers and every loadable segment must lie inside the file.
// Files that are not ELF are left to dlopen, which refuses them itself.
Status CheckElfFits(const std::string& file) {
  Result<FileText> read = ReadFileText(file, uint64_t{1} << 32);
  if (!read.ok()) return Status::Ok();  // dlopen reports a missing or unreadable file in its own words
  std::string_view bytes = read->view();
  if (bytes.size() < EI_NIDENT || bytes.substr(0, SELFMAG) != std::string_view(ELFMAG, SELFMAG)) return Status::Ok();
  auto truncated = [&](std::string_view what) {
    return Status::Errorf("{} is a truncated ELF file ({} bytes): {} lies past its end", file, bytes.size(), what);
  };
  if (bytes[EI_CLASS] != ELFCLASS64) return Status::Ok();  // not for this machine: dlopen says so
  Elf64_Ehdr header;
  if (bytes.size() < sizeof(header)) return truncated("the ELF header");
  std::memcpy(&header, bytes.data(), sizeof(header));
  uint64_t table_end = header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize;
  if (header.e_phentsize < sizeof(Elf64_Phdr) || table_end > bytes.size()) return truncated("the program header table");
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, bytes.data() + header.e_phoff + uint64_t{i} * header.e_phentsize, sizeof(segment));
    if (segment.p_type == PT_LOAD && segment.p_offset + segment.p_filesz > bytes.size()) {
      return truncated(
          fmt::format("loadable segment {} (bytes {}..{})", i, segment.p_offset, segment.p_offset + segment.p_filesz));
    }
  }
  return Status::Ok();
}

std::string DlError() {
  const char* error = dlerror();
  return error ? error : "unknown dlopen error";
}

}  // namespace

Result<LoadedPlugin> PluginSet::Load(const std::string& path, PassRegistry& registry) {
  for (const LoadedPlugin& plugin : loaded_) {
    if (plugin.path == path) return Status::Errorf("plugin {} is already loaded", path);
  }
  // dlopen searches the system library path for a name without a slash, so
  // `plugin load x.so` could load some other x.so; a plugin is a file the
  // user names, relative to the working directory like every other path.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // A missing or unreadable file is said in airscope's words, not the C library's dlopen text.
  if (::access(file.c_str(), R_OK) != 0) {
    return Status::Errorf("cannot load plugin {}: {}: {}", path, file, std::strerror(errno));
  }
  // dlopen opens what it is given and reads it: a FIFO without a writer
  // blocked `plugin load` forever, a device would be read as long as it
  // gives bytes. A plugin is a shared object on disk: a regular file.
  if (std::string kind = NonRegularFileKind(file); !kind.empty()) {
    return Status::Errorf("cannot load plugin {}: {} is {}, not a shared object file", path, file, kind);
  }
  AIRSCOPE_RETURN_IF_ERROR(CheckElfFits(file));
  dlerror();
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return Status::Errorf("cannot load plugin {}: {}", path, DlError());
  // Any failure below closes the handle; nothing of the plugin is kept then.
  auto fail = [&](Status status) {
    dlclose(handle);
    return status;
  };
  auto version = reinterpret_cast<AirscopePluginVersionFn>(dlsym(handle, "airscope_plugin_api_version"));
  auto init = reinterpret_cast<AirscopePluginInitFn>(dlsym(handle, "airscope_plugin_init"));
  if (!version || !init) {
    return fail(Status::Errorf("{} is not an airscope plugin: it does not export {} (see core/pass/plugin_api.h)", path,
                               !version ? "airscope_plugin_api_version" : "airscope_plugin_init"));
  }
  int plugin_version = version();
  if (plugin_version != AIRSCOPE_PLUGIN_API_VERSION) {
    return fail(
        Status::Errorf("plugin {} was built for plugin API version {}, this airscope has version {}: rebuild "
                       "it against this airscope's headers",
                       path, plugin_version, AIRSCOPE_PLUGIN_API_VERSION));
  }
  Status result;
  LoadedPlugin loaded{path, {}};
  {
    HostState state;
    AirscopePluginHost host{AIRSCOPE_PLUGIN_API_VERSION, &state, RegisterPassCallback, SetErrorCallback};
    int code = 0;
    try {
      code = init(&host);
    } catch (const std::exception& e) {
      code = -1;
      state.error = fmt::format("threw {}", e.what());
    } catch (...) {
      code = -1;
      state.error = "threw an exception";
    }
    if (code != 0) {
      result = Status::Errorf("plugin {}: init failed ({}): {}", path, code,
                              state.error.empty() ? "no reason given" : state.error);
    } else if (state.passes.empty()) {
      result = Status::Errorf("plugin {} registered no passes", path);
    }
    // Check every pass before registering any, so a refused one leaves the registry as it was.
    for (const PassInfo& pass : state.passes) {
      if (!result.ok()) break;
      const PassInfo* existing = registry.Find(pass.name);
      if (!Graph::IsLegalName(pass.name)) {
        result = Status::Errorf("plugin {}: '{}' is not a usable pass name", path, pass.name);
      } else if (existing && existing->kind != PassKind::kUser) {
        result = Status::Errorf("plugin {}: '{}' is a builtin pass; choose another name", path, pass.name);
      }
    }
    if (result.ok()) {
      for (PassInfo& pass : state.passes) {
        loaded.passes.push_back(pass.name);
        (void)registry.Register(std::move(pass));
      }
    }
    // `state` (which may hold the plugin's std::functions) dies here, before any dlclose.
  }
  if (!result.ok()) return fail(result);
  loaded_.push_back(loaded);
  return loaded;
}

}  // namespace airscope

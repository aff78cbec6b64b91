#include "viz/report/report_publish.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/inflight_temps.h"
#include "core/interrupt.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// What DIR holds, read without following any symlink inside it.
struct Existing {
  bool exists = false;
  mode_t mode = 0;
  bool manifest = false;          // a manifest of ours that lists its files
  std::set<std::string> listed;   // the files it lists
  std::vector<std::string> ours;  // listed files present (and the manifest)
  std::vector<std::string> others;
};

// A manifest path is relative, with no empty, `.` or `..` part: a damaged or
// planted manifest never names anything outside DIR.
bool SafeRelative(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path)) {
    std::string p = part.string();
    if (p.empty() || p == "." || p == "..") return false;
  }
  return true;
}

// The files the manifest at `path` lists; false when it is none of ours
// (unreadable, not JSON, another format, or a version-1 marker that listed nothing).
bool ReadManifest(const fs::path& path, std::set<std::string>* listed) {
  Result<std::string> text = ReadFile(path.string(), uint64_t{64} << 20);
  if (!text.ok()) return false;
  json manifest = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!manifest.is_object() || manifest.value("format", "") != "airscope-report" || !manifest.contains("files") ||
      !manifest["files"].is_array()) {
    return false;
  }
  for (const json& file : manifest["files"]) {
    if (!file.is_string() || !SafeRelative(file.get<std::string>())) return false;
    listed->insert(file.get<std::string>());
  }
  return true;
}

Result<Existing> Inspect(const fs::path& target) {
  Existing found;
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) {
    if (errno == ENOENT) return found;
    return Status::Errorf("cannot read {}: {}", target.string(), std::strerror(errno));
  }
  found.exists = true;
  found.mode = st.st_mode & 07777;
  if (!S_ISDIR(st.st_mode)) return Status::Errorf("{} exists and is not a directory", target.string());
  found.manifest = ReadManifest(target / kReportManifest, &found.listed);
  std::set<std::string> parents;  // directories a listed file needs
  for (const std::string& file : found.listed) {
    for (fs::path p = fs::path(file).parent_path(); !p.empty(); p = p.parent_path()) parents.insert(p.generic_string());
  }
  std::error_code ec;
  for (fs::recursive_directory_iterator it(target, ec), end; !ec && it != end; it.increment(ec)) {
    std::string rel = it->path().lexically_relative(target).generic_string();
    bool is_dir = it->is_directory(ec) && !it->is_symlink(ec);
    if (is_dir) {
      if (parents.count(rel) == 0) {
        found.others.push_back(rel + "/");
        it.disable_recursion_pending();  // a folder of the user's: named once, not file by file
      }
      continue;
    }
    bool listed = found.manifest && (rel == kReportManifest || found.listed.count(rel) > 0);
    (listed ? found.ours : found.others).push_back(rel);
  }
  if (ec) return Status::Errorf("cannot read {}: {}", target.string(), ec.message());
  std::sort(found.others.begin(), found.others.end());
  return found;
}

std::string Names(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += fmt::format(" and {} more", names.size() - kShown);
  return out;
}

// Where a write to `dir` lands: a symlink (chain) is followed, even to a
// directory that does not exist yet.
Result<fs::path> Resolve(const std::string& dir) {
  std::error_code ec;
  fs::path target = fs::absolute(fs::path(dir), ec).lexically_normal();  // no throw: the working directory may be gone
  if (ec) return Status::Errorf("cannot tell where {} is: {}", dir, ec.message());
  if (target.filename().empty()) target = target.parent_path();
  for (int hops = 0; hops < 40; ++hops) {
    if (!fs::is_symlink(fs::symlink_status(target, ec))) return target;
    fs::path link = fs::read_symlink(target, ec);
    if (ec) return Status::Errorf("cannot follow {}: {}", target.string(), ec.message());
    target = (link.is_absolute() ? link : target.parent_path() / link).lexically_normal();
    if (target.filename().empty()) target = target.parent_path();
  }
  return Status::Errorf("{}: too many levels of symbolic links", dir);
}

// `.`, `..`, `/` or any folder the working directory is in: a report there
// would be written around the session's own files (and used to delete them).
Status RefuseWorkingDirectory(const fs::path& target, const std::string& dir) {
  std::error_code ec;
  fs::path cwd = fs::canonical(fs::current_path(ec), ec);
  if (ec) return Status::Ok();
  fs::path where = fs::weakly_canonical(target, ec);
  if (ec) return Status::Ok();
  std::string a = where.generic_string(), b = cwd.generic_string();
  if (a == "/" || b == a || b.starts_with(a + "/")) {
    return Status::Errorf("{} is the working directory or holds it: give the report a directory of its own", dir);
  }
  return Status::Ok();
}

std::string ManifestText(json manifest, const std::set<std::string>& files) {
  manifest["files"] = json(std::vector<std::string>(files.begin(), files.end()));
  return manifest.dump(2) + "\n";
}

Status WriteAll(const std::vector<std::pair<std::string, std::string>>& files, const fs::path& root) {
  for (const auto& [path, contents] : files) {
    if (InterruptRequested()) return InterruptedStatus();
    AIRSCOPE_RETURN_IF_ERROR(WriteFile((root / path).string(), contents));
  }
  return Status::Ok();
}

// Deletes the listed files under `root` that are not in `keep`, then the
// folders they leave empty; nothing else.
void DeleteListed(const fs::path& root, const std::set<std::string>& listed, const std::set<std::string>& keep) {
  std::set<fs::path> folders;
  for (const std::string& file : listed) {
    if (keep.count(file) > 0) continue;
    fs::path path = root / file;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) ::unlink(path.c_str());
    for (fs::path p = fs::path(file).parent_path(); !p.empty(); p = p.parent_path()) folders.insert(root / p);
  }
  // Deepest first; rmdir removes only an empty folder.
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) ::rmdir(it->c_str());
}

// The whole report swapped in at once, over nothing, an empty DIR or an earlier report.
Status Swap(const std::vector<std::pair<std::string, std::string>>& files, const std::string& manifest_text,
            const Existing& existing, const fs::path& target, std::vector<std::string>* notes) {
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  std::string staging = (target.parent_path() / ".airscope-report-XXXXXX").string();
  InFlightTemp in_flight;
  if (Status made = CreateTempDir(staging, in_flight); !made.ok()) {
    return Status::Errorf("cannot make a staging directory in {}: {}", target.parent_path().string(), made.message());
  }
  auto abandon = [&](Status status) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);  // ours alone: made by mkdtemp
    in_flight.Forget();
    return status;
  };
  // mkdtemp makes 0700; the report gets what mkdir would give, or the mode of the DIR it replaces.
  mode_t mode = existing.exists ? existing.mode : 0;
  if (!existing.exists) {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0777 & ~mask;
  }
  if (::chmod(staging.c_str(), mode) != 0) return abandon(Status::Errorf("cannot set the mode of {}", staging));
  std::vector<std::pair<std::string, std::string>> all = files;
  all.emplace_back(std::string(kReportManifest), manifest_text);
  if (Status written = WriteAll(all, staging); !written.ok()) return abandon(written);
  if (!existing.exists || existing.ours.empty()) {
    // rename replaces an empty directory; one that filled up meanwhile is refused (ENOTEMPTY).
    if (::rename(staging.c_str(), target.c_str()) != 0) {
      return abandon(Status::Errorf("cannot move the report into {}: {}", target.string(), std::strerror(errno)));
    }
    in_flight.Forget();
    return Status::Ok();
  }
  // An earlier report: exchanged in one step, then its listed files deleted from where the staging was.
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) {
      return abandon(Status::Errorf("cannot move the report into {}: {}", target.string(), std::strerror(errno)));
    }
    // A file system without RENAME_EXCHANGE: the earlier report moved aside, then the new one in.
    std::string aside = (target.parent_path() / ".airscope-report-old-XXXXXX").string();
    if (::mkdtemp(aside.data()) == nullptr || ::rename(target.c_str(), aside.c_str()) != 0) {
      Status failed =
          Status::Errorf("cannot move the earlier report in {} aside: {}", target.string(), std::strerror(errno));
      ::rmdir(aside.c_str());
      return abandon(failed);
    }
    if (::rename(staging.c_str(), target.c_str()) != 0) {
      Status failed = Status::Errorf("cannot move the report into {}: {}", target.string(), std::strerror(errno));
      ::rename(aside.c_str(), target.c_str());
      return abandon(failed);
    }
    in_flight.Forget();
    staging = aside;
  }
  std::set<std::string> old = existing.listed;
  old.insert(std::string(kReportManifest));
  DeleteListed(staging, old, {});
  if (::rmdir(staging.c_str()) != 0) {
    notes->push_back(
        fmt::format("the earlier report's folder, moved to {}, was not empty after its files were deleted", staging));
  }
  in_flight.Forget();
  return Status::Ok();
}

// --force into a DIR that holds other files: the report's files one by one.
Status InPlace(const std::vector<std::pair<std::string, std::string>>& files, const json& manifest,
               const Existing& existing, const fs::path& target) {
  std::set<std::string> fresh;
  for (const auto& [path, contents] : files) fresh.insert(path);
  // First a manifest naming both reports' files: whatever happens next, every
  // file of ours in DIR is listed, so a later report can replace it.
  std::set<std::string> both = fresh;
  both.insert(existing.listed.begin(), existing.listed.end());
  fs::path manifest_path = target / kReportManifest;
  AIRSCOPE_RETURN_IF_ERROR(WriteFile(manifest_path.string(), ManifestText(manifest, both)));
  AIRSCOPE_RETURN_IF_ERROR(WriteAll(files, target));
  DeleteListed(target, existing.listed, fresh);
  return WriteFile(manifest_path.string(), ManifestText(manifest, fresh));
}

}  // namespace

Status PublishReport(const std::vector<std::pair<std::string, std::string>>& files, const json& manifest,
                     const std::string& dir, bool force, std::vector<std::string>* notes) {
  AIRSCOPE_ASSIGN_OR_RETURN(fs::path target, Resolve(dir));
  AIRSCOPE_RETURN_IF_ERROR(RefuseWorkingDirectory(target, dir));
  AIRSCOPE_ASSIGN_OR_RETURN(Existing existing, Inspect(target));
  if (!existing.others.empty() && !force) {
    if (!existing.manifest) {
      return Status::Errorf(
          "{} holds files no airscope report listed as its own ({}): give a new or empty directory, or --force to "
          "write the report's files into it (files of the same names are replaced, the others kept)",
          dir, Names(existing.others));
    }
    return Status::Errorf(
        "{} holds an earlier report and files it did not write ({}): move them out, or give --force to keep them "
        "and replace the report's own files",
        dir, Names(existing.others));
  }
  std::set<std::string> names;
  for (const auto& [path, contents] : files) names.insert(path);
  if (existing.others.empty()) return Swap(files, ManifestText(manifest, names), existing, target, notes);
  return InPlace(files, manifest, existing, target);
}

}  // namespace airscope

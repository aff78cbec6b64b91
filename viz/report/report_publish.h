// PublishReport: puts a report's files into DIR, touching only what an
// airscope report wrote there.
//
// DIR/airscope-report.json is the manifest: it lists every file the report
// wrote (paths relative to DIR). What is in DIR decides what happens:
//   - nothing (no DIR, or an empty one) or only an earlier report's listed
//     files: the new report is built in a staging directory beside DIR (a
//     fresh mkdtemp name, `.airscope-report-XXXXXX`) and swapped in at once
//     (rename, or renameat2's RENAME_EXCHANGE over an earlier report); the
//     earlier report's listed files are then deleted, nothing else. DIR is
//     written whole or not at all.
//   - anything else (a folder of the user's, files a user added inside an
//     earlier report, an airscope-report.json that is no manifest of ours):
//     refused, naming those files, unless `force`; with `force` the report's
//     files are written into DIR one by one (each atomically), files of the
//     same names replaced, the earlier report's other listed files deleted,
//     everything else left as it is.
// DIR that is a symlink is followed: the report goes where it points and
// the link stays. DIR that is the working directory or holds it (`.`, `..`,
// `/`) is refused, force or not. The staging directory is registered with
// core/inflight_temps.h: SIGTERM, SIGHUP or SIGQUIT meanwhile removes it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace airscope {

inline constexpr std::string_view kReportManifest = "airscope-report.json";

// `files`: (path relative to DIR, contents), the manifest not among them;
// `manifest`: its fields other than "files" (format, version, airscope, pages).
// `notes` gets what the caller should hear (an earlier report's leftovers).
Status PublishReport(const std::vector<std::pair<std::string, std::string>>& files, const nlohmann::json& manifest,
                     const std::string& dir, bool force, std::vector<std::string>* notes);

}  // namespace airscope

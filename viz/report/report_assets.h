// The report's templates, stylesheet and page script, compiled into the
// binary from viz/report/templates and viz/report/assets (cmake/
// embed_files.cmake), so a report needs nothing installed beside airscope.
#pragma once

#include <string_view>
#include <vector>

namespace airscope {

struct EmbeddedFile {
  std::string_view name;  // "templates/index.mustache", "assets/report.js"
  std::string_view data;
};

const std::vector<EmbeddedFile>& ReportAssets();

// The embedded file `name`; empty when there is none (a build error, caught by the tests).
std::string_view ReportAsset(std::string_view name);

}  // namespace airscope

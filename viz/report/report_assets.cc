#include "viz/report/report_assets.h"

namespace airscope {

std::string_view ReportAsset(std::string_view name) {
  for (const EmbeddedFile& file : ReportAssets()) {
    if (file.name == name) return file.data;
  }
  return {};
}

}  // namespace airscope

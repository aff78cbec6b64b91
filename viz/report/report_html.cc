#include "viz/report/report_html.h"

#include <kainjow/mustache.hpp>

#include "viz/report/report_assets.h"

namespace airscope {

namespace mustache = kainjow::mustache;

std::string HtmlEscape(std::string_view text) { return mustache::html_escape(std::string(text)); }

std::string ScriptJson(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', /*ensure_ascii=*/true);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
  }
  return out;
}

namespace {

mustache::data ToData(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      mustache::data object{mustache::data::type::object};
      for (const auto& [key, item] : value.items()) object.set(key, ToData(item));
      return object;
    }
    case nlohmann::json::value_t::array: {
      mustache::data list{mustache::data::type::list};
      for (const auto& item : value) list.push_back(ToData(item));
      return list;
    }
    case nlohmann::json::value_t::string:
      // An empty string is false, as in mustache.js: `{{#error}}...{{/error}}`
      // shows nothing for no error (a bool renders as nothing in `{{error}}`).
      if (value.get_ref<const std::string&>().empty()) return mustache::data{mustache::data::type::bool_false};
      return mustache::data{value.get<std::string>()};
    case nlohmann::json::value_t::boolean:
      return mustache::data{value.get<bool>() ? mustache::data::type::bool_true : mustache::data::type::bool_false};
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return mustache::data{value.dump()};
    default: return mustache::data{mustache::data::type::bool_false};
  }
}

std::string TemplateName(std::string_view name) { return "templates/" + std::string(name) + ".mustache"; }

}  // namespace

Result<std::string> RenderPage(std::string_view name, const nlohmann::json& context) {
  std::string_view text = ReportAsset(TemplateName(name));
  if (text.empty()) return Status::Errorf("report: no template '{}'", name);
  mustache::mustache page{std::string(text)};
  if (!page.is_valid()) return Status::Errorf("report: template '{}': {}", name, page.error_message());
  mustache::data data = ToData(context);
  // A partial is a name in the page's data: a context key of the same name
  // would be shadowed by it (a page's drawing is "graph_drawing" for that).
  for (const char* partial : {"header", "footer", "drawing", "hazard_list", "compile_leaf"}) {
    std::string body(ReportAsset(TemplateName(partial)));
    data.set(partial, mustache::partial{[body] { return body; }});
  }
  std::string out = page.render(data);
  if (!page.is_valid()) return Status::Errorf("report: template '{}': {}", name, page.error_message());
  return out;
}

}  // namespace airscope

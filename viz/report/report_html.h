// Building blocks of the report's pages: escaping for the two places text
// from graph files lands (HTML and JSON inside a <script>), and pages from
// the embedded Mustache templates with their data as nlohmann::json.
//
// Contract: everything from a graph file reaches a page through HtmlEscape,
// a template's {{escaped}} tag, or ScriptJson; nothing is concatenated raw.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace airscope {

// & < > " ' as entities (Mustache's own escaping).
std::string HtmlEscape(std::string_view text);

// JSON that is safe inside <script>: "</" becomes "<\/" (the parser would end
// the script there), and non-ASCII is \u-escaped.
std::string ScriptJson(const nlohmann::json& value);

// `templates/NAME.mustache` rendered with `context` (objects, arrays,
// strings, numbers, booleans; null and "" are false, as in mustache.js).
// Partials `{{> header}}`, `{{> footer}}`, `{{> drawing}}`, `{{> hazard_list}}`
// and `{{> compile_leaf}}` are the templates of those names. An error names
// the template and what Mustache said.
Result<std::string> RenderPage(std::string_view name, const nlohmann::json& context);

}  // namespace airscope

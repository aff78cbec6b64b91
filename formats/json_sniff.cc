#include "formats/json_sniff.h"

#include <string>

#include <nlohmann/json.hpp>

namespace airscope {
namespace {

// Accepts every event; remembers where parsing failed.
struct PrefixSax : nlohmann::json_sax<nlohmann::json> {
  size_t error_at = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
    error_at = position;
    return false;
  }
};

}  // namespace

bool StartsAsJson(std::string_view line) {
  constexpr size_t kLooked = 4096;
  std::string_view span = line.substr(0, kLooked);
  while (!span.empty() && (span.back() == '\r' || span.back() == ' ' || span.back() == '\t')) span.remove_suffix(1);
  if (span.empty() || (span.front() != '{' && span.front() != '[')) return false;
  PrefixSax sax;
  if (nlohmann::json::sax_parse(span.begin(), span.end(), &sax)) return true;
  // nlohmann counts the characters it read: an error inside the span is at
  // most its size; running out of input (a value the next lines continue)
  // reads one past it.
  return sax.error_at > span.size();
}

}  // namespace airscope

#include "formats/md5.h"

#include <cstdint>

namespace airscope {

Md5::Md5() { MD5Init(&context_); }

void Md5::Update(std::string_view data) {
  MD5Update(&context_, reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

std::string Md5::HexDigest() {
  char hex[MD5_DIGEST_STRING_LENGTH];
  MD5End(&context_, hex);  // lowercase hex, NUL-terminated
  return std::string(hex, MD5_DIGEST_LENGTH * 2);
}

std::string Md5Hex(std::string_view data) {
  Md5 md5;
  md5.Update(data);
  return md5.HexDigest();
}

}  // namespace airscope

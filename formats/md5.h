// MD5 (RFC 1321), for checking TORCH_TRACE payloads against their
// "has_payload" digest. Not for security: the logs use it as a checksum.
// The digest itself is libmd's (Debian's libmd-dev, the BSD <md5.h>); this
// wrapper only gives it a string interface.
#pragma once

#include <string>
#include <string_view>

#include <md5.h>

namespace airscope {

class Md5 {
 public:
  Md5();
  void Update(std::string_view data);
  // The digest as 32 lowercase hex digits; the object must not be updated after.
  std::string HexDigest();

 private:
  MD5_CTX context_;
};

std::string Md5Hex(std::string_view data);

}  // namespace airscope

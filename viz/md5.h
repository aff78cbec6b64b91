// MD5 (RFC 1321), for checking TORCH_TRACE payloads against their
// "has_payload" digest. Not for security: the logs use it as a checksum.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace airscope {

class Md5 {
 public:
  Md5();
  void Update(std::string_view data);
  // The digest as 32 lowercase hex digits; the object must not be updated after.
  std::string HexDigest();

 private:
  void Block(const unsigned char* block);
  std::array<uint32_t, 4> state_;
  uint64_t length_ = 0;  // bytes
  unsigned char buffer_[64];
  size_t buffered_ = 0;
};

std::string Md5Hex(std::string_view data);

}  // namespace airscope

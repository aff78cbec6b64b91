#include "core/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace airscope {

Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Errorf("{}: cannot open: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::Errorf("{}: not a regular file", path);
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return Status::Errorf("{}: {} bytes is over the size limit of {} bytes", path, st.st_size, max_bytes);
  }
  // Room for what fstat promised plus one byte, so reaching the end of a
  // regular file takes no growth; a pipe or FIFO (st_size 0) or a file that
  // grows while we read doubles the buffer as it fills.
  FileText text;
  text.buffer_ = LargeBuffer(static_cast<size_t>(st.st_size) + 1);
  while (true) {
    if (text.size_ == text.buffer_.size()) {
      LargeBuffer grown(text.buffer_.size() * 2 + 65536);
      std::memcpy(grown.data(), text.buffer_.data(), text.size_);
      text.buffer_ = std::move(grown);
    }
    ssize_t n = ::read(fd, static_cast<char*>(text.buffer_.data()) + text.size_, text.buffer_.size() - text.size_);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Status::Errorf("{}: read failed: {}", path, std::strerror(err));
    }
    if (n == 0) break;
    text.size_ += static_cast<size_t>(n);
    if (text.size_ > max_bytes) {
      ::close(fd);
      return Status::Errorf("{}: over the size limit of {} bytes", path, max_bytes);
    }
  }
  ::close(fd);
  return text;
}

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  Result<FileText> text = ReadFileText(path, max_bytes);
  if (!text.ok()) return text.status();
  return std::string(text->view());
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::Errorf("{}: write failed: {}", path, std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::Errorf("{}: cannot write: {}", path, std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace airscope

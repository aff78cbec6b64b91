#include "core/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace airscope {

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
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
  std::string data;
  data.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (true) {
    if (done == data.size()) {
      if (data.size() >= max_bytes) break;
      data.resize(data.size() + 65536);  // the file grew, or st_size was 0 (a pipe)
    }
    ssize_t n = ::read(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return Status::Errorf("{}: read failed: {}", path, std::strerror(errno));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
    if (done > max_bytes) {
      ::close(fd);
      return Status::Errorf("{}: over the size limit of {} bytes", path, max_bytes);
    }
  }
  ::close(fd);
  data.resize(done);
  return data;
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

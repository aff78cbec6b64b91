#include "core/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/inflight_temps.h"
#include "core/interrupt.h"

namespace airscope {

namespace {

// A FIFO opened without a writer reads as empty at once; this waits until
// bytes (or a writer's end of file) arrive, for a bounded time. Linux does
// not report a hang-up on such a FIFO before a writer has been seen, so the
// poll ends on data, on a writer that closed, or on the timeout.
Status WaitForWriter(int fd, const std::string& path, int wait_ms) {
  pollfd p{fd, POLLIN, 0};
  while (true) {
    int ready = ::poll(&p, 1, wait_ms);
    if (ready > 0) return Status::Ok();
    if (ready == 0) {
      return Status::Errorf("{}: a FIFO with no writer: nothing arrived in {} ms (start the writer first)", path,
                            wait_ms);
    }
    if (errno != EINTR) return Status::Errorf("{}: cannot wait for the FIFO: {}", path, std::strerror(errno));
    if (InterruptRequested()) return InterruptedStatus();
  }
}

}  // namespace

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    st_ = other.st_;
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<InputFile> InputFile::Open(const std::string& path, int fifo_wait_ms) {
  // O_NONBLOCK: opening a FIFO that has no writer would wait for one
  // forever. A FIFO is given a few seconds for its first bytes instead
  // (WaitForWriter); then reads block again, so it is read to its end.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Status::Errorf("{}: cannot open: {}", path, std::strerror(errno));
  struct stat st {};
  InputFile file(fd, st);
  if (::fstat(fd, &file.st_) != 0 || S_ISDIR(file.st_.st_mode)) return Status::Errorf("{}: not a regular file", path);
  if (S_ISCHR(file.st_.st_mode) || S_ISBLK(file.st_.st_mode)) {  // /dev/zero would be read up to the size limit
    return Status::Errorf("{}: a device, not a file (airscope reads regular files, pipes and FIFOs)", path);
  }
  if (S_ISFIFO(file.st_.st_mode)) AIRSCOPE_RETURN_IF_ERROR(WaitForWriter(fd, path, fifo_wait_ms));
  if (int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    return Status::Errorf("{}: cannot read: {}", path, std::strerror(errno));
  }
  return file;
}

std::string NonRegularFileKind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return "";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  if (S_ISDIR(st.st_mode)) return "a directory";
  return "not a regular file";
}

Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes, int fifo_wait_ms) {
  AIRSCOPE_ASSIGN_OR_RETURN(InputFile file, InputFile::Open(path, fifo_wait_ms));
  int fd = file.fd();
  const struct stat& st = file.stat();
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Status::Errorf("{}: {} bytes is over the size limit of {} bytes", path, st.st_size, max_bytes);
  }
  // A big regular file is mapped: reading it would have the kernel clear
  // every page of the buffer and then copy into it (see MappedFile).
  FileText text;
  if (S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) >= LargeBuffer::kHugeFrom) {
    Result<MappedFile> mapped = MappedFile::Map(fd, static_cast<size_t>(st.st_size), path);
    if (!mapped.ok()) return mapped.status();
    text.mapped_ = std::move(mapped).value();
    return text;
  }
  // Room for what fstat promised plus one byte, so reaching the end of a
  // regular file takes no growth; a pipe or FIFO (st_size 0) or a file that
  // grows while we read doubles the buffer as it fills.
  text.buffer_ = LargeBuffer(static_cast<size_t>(st.st_size) + 1);
  while (true) {
    if (text.size_ == text.buffer_.size()) {
      LargeBuffer grown(text.buffer_.size() * 2 + 65536);
      std::memcpy(grown.data(), text.buffer_.data(), text.size_);
      text.buffer_ = std::move(grown);
    }
    ssize_t n = ::read(fd, static_cast<char*>(text.buffer_.data()) + text.size_, text.buffer_.size() - text.size_);
    if (n < 0) {
      if (errno == EINTR && !InterruptRequested()) continue;
      int err = errno;
      if (err == EINTR) return InterruptedStatus();
      return Status::Errorf("{}: read failed: {}", path, std::strerror(err));
    }
    if (n == 0) break;
    text.size_ += static_cast<size_t>(n);
    if (text.size_ > max_bytes) {
      return Status::Errorf("{}: over the size limit of {} bytes", path, max_bytes);
    }
  }
  return text;
}

Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  AIRSCOPE_ASSIGN_OR_RETURN(FileText text, ReadFileText(path, max_bytes));
  return std::string(text.view());
}

namespace {

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// mkdir -p of `dir`, 0777 less the umask as mkdir gives.
Status MakeDirs(const std::string& dir, const std::string& path) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::Ok();
    return Status::Errorf("{}: cannot write: {} is not a directory", path, dir);
  }
  if (errno != ENOENT) return Status::Errorf("{}: cannot write: {}: {}", path, dir, std::strerror(errno));
  std::string parent = DirName(dir);
  if (parent != dir) AIRSCOPE_RETURN_IF_ERROR(MakeDirs(parent, path));
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return Status::Errorf("{}: cannot write: cannot create directory {}: {}", path, dir, std::strerror(errno));
  }
  return Status::Ok();
}

// A device, FIFO or socket: written in place, never replaced.
Status WriteInPlace(const std::string& path, std::string_view contents, bool fifo) {
  // O_NONBLOCK first: opening a FIFO nobody reads would wait forever.
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0));
  if (fd < 0) {
    if (errno == ENXIO) return Status::Errorf("{}: a FIFO with no reader (start the reader first)", path);
    return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
  }
  if (fifo) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  Status written = WriteAllTo(fd, contents, path);
  if (::close(fd) != 0 && written.ok()) written = Status::Errorf("{}: write failed: {}", path, std::strerror(errno));
  return written;
}

// Where a write to `path` lands: the file a chain of symlinks ends at, even
// when that file does not exist yet. Sets *existing to the target's lstat
// when it exists.
Result<std::string> FollowLinks(const std::string& path, struct stat* existing, bool* exists) {
  std::string target = path;
  for (int hops = 0;; ++hops) {
    if (::lstat(target.c_str(), existing) != 0) {
      // ENOTDIR: MakeDirs names the part of the path that is not a directory.
      if (errno != ENOENT && errno != ENOTDIR)
        return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
      *exists = false;
      return target;
    }
    if (!S_ISLNK(existing->st_mode)) {
      *exists = true;
      return target;
    }
    if (hops == 40) return Status::Errorf("{}: cannot write: too many levels of symbolic links", path);
    std::string link(4096, '\0');
    ssize_t n = ::readlink(target.c_str(), link.data(), link.size());
    if (n < 0) return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
    link.resize(static_cast<size_t>(n));
    target = link.starts_with('/') ? link : fmt::format("{}/{}", DirName(target), link);
  }
}

}  // namespace

Status WriteAllTo(int fd, std::string_view contents, const std::string& path) {
  while (!contents.empty()) {
    ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      if (err == EFBIG) return Status::Errorf("{}: write failed: over the file size limit (ulimit -f)", path);
      return Status::Errorf("{}: write failed: {}", path, std::strerror(err));
    }
    contents.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status WriteFile(const std::string& path, std::string_view contents) {
  if (path.empty()) return Status::Error("cannot write: no file name");
  // stat follows every link, /proc/self/fd's too (whose readlink text, such
  // as "pipe:[123]", is not a path): a non-regular end is written in place.
  struct stat followed {};
  if (::stat(path.c_str(), &followed) == 0) {
    if (S_ISDIR(followed.st_mode)) return Status::Errorf("{}: cannot write: it is a directory", path);
    if (!S_ISREG(followed.st_mode)) return WriteInPlace(path, contents, S_ISFIFO(followed.st_mode));
  }
  struct stat existing {};
  bool exists = false;
  AIRSCOPE_ASSIGN_OR_RETURN(std::string target, FollowLinks(path, &existing, &exists));
  std::string dir = DirName(target);
  AIRSCOPE_RETURN_IF_ERROR(MakeDirs(dir, path));

  // The temp file: in the target's directory (so rename is atomic), a short
  // name (a 255-byte file name leaves no room for a suffix), made with
  // O_EXCL by mkostemp (a symlink planted at a guessable name is never
  // followed), registered so that SIGTERM, SIGHUP or SIGQUIT meanwhile
  // removes it (core/inflight_temps.h).
  std::string tmp = dir + "/.airscope-XXXXXX";
  InFlightTemp in_flight;
  Result<int> made = CreateTempFile(tmp, in_flight);
  if (!made.ok()) return Status::Errorf("{}: cannot write in {}: {}", path, dir, made.status().message());
  int fd = *made;
  // The file keeps its mode and, where we may, its owner; a new one gets
  // what open(O_CREAT, 0666) would (mkostemp makes 0600).
  mode_t mode = 0;
  if (exists) {
    mode = existing.st_mode & 07777;
    if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()) {
      int ignored = ::fchown(fd, existing.st_uid, existing.st_gid);  // may fail unprivileged: the file becomes ours
      (void)ignored;
    }
  } else {
    mode_t mask = ::umask(0);  // read the umask (no call reads it without setting it)
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  Status written = WriteAllTo(fd, contents, path);
  if (written.ok() && ::fchmod(fd, mode) != 0) {
    written = Status::Errorf("{}: cannot set its mode: {}", path, std::strerror(errno));
  }
  if (::close(fd) != 0 && written.ok()) written = Status::Errorf("{}: write failed: {}", path, std::strerror(errno));
  if (written.ok() && ::rename(tmp.c_str(), target.c_str()) != 0) {
    written = Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
  }
  if (!written.ok()) ::unlink(tmp.c_str());
  in_flight.Forget();  // renamed into place, or removed
  return written;
}

Status AppendToFile(const std::string& path, std::string_view contents) {
  if (path.empty()) return Status::Error("cannot write: no file name");
  AIRSCOPE_RETURN_IF_ERROR(MakeDirs(DirName(path), path));
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) return Status::Errorf("{}: cannot write: {}", path, std::strerror(errno));
  Status written = WriteAllTo(fd, contents, path);
  if (::close(fd) != 0 && written.ok()) written = Status::Errorf("{}: write failed: {}", path, std::strerror(errno));
  return written;
}

}  // namespace airscope

// The README's writing contract, held to every command that writes a file
// (issue 29, done-when): a regular file is replaced atomically (a new inode,
// the old mode kept, no temp file left); a symlink is followed and stays a
// symlink; a device or FIFO is written in place, never replaced; a failed
// write (here `ulimit -f`) leaves the old file and no temp file; and
// `report` replaces only the files an earlier report listed.
//
// One table of the writers below. Every command whose syntax takes a path
// must be in it or in the readers' list, so a new writer cannot skip the
// contract without this test saying so.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/file_util.h"
#include "fifo_test_util.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;
using testing_shell::TestShell;

struct Writer {
  std::string name;
  // The command lines, run in order; `{}` is the path written. The last
  // line writes it; the lines before set the session up (and are undone by
  // `after`).
  std::vector<std::string> lines;
  std::vector<std::string> after = {};
};

// Every command that writes a file, as the user types it. The automatic
// dumps write `NN_<pass>.<ext>` under dump.dir: `{}` is that file.
const std::vector<Writer>& Writers() {
  static const std::vector<Writer> writers = {
      {"dump json", {"dump json {}"}},
      {"dump readable", {"dump readable {}"}},
      {"dump fx", {"dump fx {}"}},
      {"dump pbtxt", {"dump pbtxt {}"}},
      {"dump ge", {"dump ge {}"}},
      {"dump dot", {"dump dot {}"}},
      {"dump svg", {"dump svg {}"}},
      {"dump png", {"dump png {}"}},
      {"dump --stage", {"dump json {} --stage input"}},
      {"focus --draw", {"focus mm --draw {}"}},
      {"timeline --json", {"timeline --json {}"}},
      {"timeline --aclgraph-json", {"timeline --aclgraph-json {}"}},
      {"> (a command's output)", {"stats > {}"}},
      {"minify --out",
       {"load " AIRSCOPE_TEST_DATA "/host_sync.readable.py as sync", "minify capture --out {dir}"},
       {"use seed"}},
      {"advise --write",
       {"load " AIRSCOPE_TEST_DATA "/mlp.readable.py as advmlp", "call arg0_1=f32[8,64]", "call arg0_1=f32[16,64]",
        "advise --write {dir}"},
       {"use seed"}},
      {"automatic dumps (dump.dir)",
       {"set dump.formats json", "set dump.when all", "set dump.dir {dir}", "reset", "step"},
       {"set dump.when off", "reset"}},
  };
  return writers;
}
// Where the automatic dump of `step` lands under dump.dir.
constexpr std::string_view kAutomaticDump = "01_replace_stream_event_pass.json";

// Commands whose syntax names a path they only read, and `report` (a
// directory, held to the contract by its own test below).
const std::set<std::string>& NotFileWriters() {
  static const std::set<std::string> names = {"load", "plugin", "source", "expect", "report", "plan"};
  return names;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int LeftoverTemps(const fs::path& dir) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) n += entry.path().filename().string().starts_with(".airscope-");
  return n;
}

class WriteContractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("airscope_write_contract_{}", ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A captured multi-stream graph and a replay: every writer has something to write.
    for (const char* line : {"set show-times off", "load " AIRSCOPE_TEST_DATA "/seed_multistream_lowered.json as seed",
                             "capture", "replay 1"}) {
      Status status = shell_.interpreter.ExecuteLine(line);
      ASSERT_TRUE(status.ok()) << line << ": " << status.message();
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `writer` with `path` as the file it writes.
  Status Run(const Writer& writer, const fs::path& path) {
    Status last;
    for (const std::string& line : writer.lines) {
      std::string text = line;
      if (size_t at = text.find("{dir}"); at != std::string::npos) text.replace(at, 5, path.parent_path().string());
      if (size_t at = text.find("{}"); at != std::string::npos) text.replace(at, 2, path.string());
      last = shell_.interpreter.ExecuteLine(text);
      if (!last.ok()) break;
    }
    for (const std::string& line : writer.after) {
      Status undone = shell_.interpreter.ExecuteLine(line);
      EXPECT_TRUE(undone.ok()) << line << ": " << undone.message();
    }
    return last;
  }
  // The file `writer` writes in `dir` (the automatic dumps choose its name).
  fs::path Target(const Writer& writer, const fs::path& dir, std::string_view name) const {
    if (writer.name.starts_with("minify")) return dir / "min.readable.py";     // the first of its three files
    if (writer.name.starts_with("advise")) return dir / "advmlp.readable.py";  // the first of its files
    return writer.name.starts_with("automatic") ? dir / kAutomaticDump : dir / name;
  }

  fs::path dir_;
  TestShell shell_;
};

TEST_F(WriteContractTest, EveryCommandThatTakesAPathIsAWriterHereOrOnlyReadsIt) {
  std::set<std::string> writers;
  for (const Writer& w : Writers()) {
    std::string first = w.lines.back();
    writers.insert(first.substr(0, first.find(' ')));
  }
  writers.insert("stats");  // the `>` redirect's stand-in: every command's output
  for (const CommandSpec& command : shell_.table.commands()) {
    const CommandSpec* spec = &command;
    const std::string& syntax = spec->syntax;
    bool takes_path = syntax.find("PATH") != std::string::npos || syntax.find("FILE") != std::string::npos ||
                      syntax.find("DIR") != std::string::npos;
    if (!takes_path) continue;
    EXPECT_TRUE(writers.count(spec->name) > 0 || NotFileWriters().count(spec->name) > 0)
        << "'" << syntax << "' takes a path: add it to Writers() (it writes) or NotFileWriters() (it reads)";
  }
}

TEST_F(WriteContractTest, ARegularFileIsReplacedAtomicallyKeepingItsMode) {
  for (const Writer& writer : Writers()) {
    SCOPED_TRACE(writer.name);
    fs::path dir = dir_ / "regular";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path path = Target(writer, dir, "out");
    std::ofstream(path) << "the old file";
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    struct stat before {};
    ASSERT_EQ(::stat(path.c_str(), &before), 0);
    Status written = Run(writer, path);
    ASSERT_TRUE(written.ok()) << written.message();
    struct stat after {};
    ASSERT_EQ(::stat(path.c_str(), &after), 0);
    EXPECT_NE(after.st_ino, before.st_ino);  // renamed over it, not rewritten in place
    EXPECT_EQ(after.st_mode & 07777, 0640u);
    EXPECT_NE(Slurp(path.string()), "the old file");
    EXPECT_EQ(LeftoverTemps(dir), 0);
  }
}

TEST_F(WriteContractTest, ASymlinkIsFollowedAndStaysASymlink) {
  for (const Writer& writer : Writers()) {
    SCOPED_TRACE(writer.name);
    fs::path dir = dir_ / "linked";
    fs::remove_all(dir);
    fs::create_directories(dir / "real");
    fs::path path = Target(writer, dir, "out");
    std::ofstream(dir / "real" / "target") << "the old file";
    fs::create_symlink("real/target", path);
    Status written = Run(writer, path);
    ASSERT_TRUE(written.ok()) << written.message();
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path)));
    EXPECT_NE(Slurp((dir / "real" / "target").string()), "the old file");
    EXPECT_EQ(LeftoverTemps(dir), 0);
    EXPECT_EQ(LeftoverTemps(dir / "real"), 0);
  }
}

TEST_F(WriteContractTest, ADeviceAndAFifoAreWrittenInPlace) {
  for (const Writer& writer : Writers()) {
    SCOPED_TRACE(writer.name);
    fs::path dir = dir_ / "special";
    fs::remove_all(dir);
    fs::create_directories(dir);
    // /dev/null, through a symlink where the writer picks the name.
    fs::path null_path = Target(writer, dir, "null");
    fs::create_symlink("/dev/null", null_path);
    Status to_null = Run(writer, null_path);
    ASSERT_TRUE(to_null.ok()) << to_null.message();
    struct stat st {};
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(null_path)));
    fs::remove(null_path);
    // A FIFO with a reader gets the bytes and stays a FIFO.
    fs::path fifo = Target(writer, dir, "fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    testing_fifo::FifoReaderProcess reader(fifo.string());
    Status to_fifo;
    for (int attempt = 0; attempt < 300; ++attempt) {  // until the reader has opened it
      shell_.sink.text.clear();
      to_fifo = Run(writer, fifo);
      // The automatic dumps say which file failed in their output, `step` only how many.
      bool no_reader = to_fifo.message().find("no reader") != std::string::npos ||
                       shell_.sink.text.find("no reader") != std::string::npos;
      if (to_fifo.ok() || !no_reader) break;
      ::usleep(10000);
    }
    ASSERT_TRUE(to_fifo.ok()) << to_fifo.message();  // (the reader's destructor ends it)
    EXPECT_FALSE(reader.Finish().empty());
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(LeftoverTemps(dir), 0);
  }
}

TEST_F(WriteContractTest, AFailedWriteLeavesTheOldFileAndNoTemp) {
  for (const Writer& writer : Writers()) {
    SCOPED_TRACE(writer.name);
    fs::path dir = dir_ / "limited";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path path = Target(writer, dir, "out");
    std::ofstream(path) << "old";
    // In a child: RLIMIT_FSIZE would limit this test process too.
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // as airscope's main does
      rlimit limit{64, 64};
      ::setrlimit(RLIMIT_FSIZE, &limit);
      shell_.sink.text.clear();
      Status written = Run(writer, path);
      // The automatic dumps fail `step` and print each failed file above that.
      bool said = written.message().find("ulimit -f") != std::string::npos ||
                  shell_.sink.text.find("ulimit -f") != std::string::npos;
      ::_exit(!written.ok() && said ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the write did not fail naming ulimit -f";
    EXPECT_EQ(Slurp(path.string()), "old");
    EXPECT_EQ(LeftoverTemps(dir), 0);
  }
}

// `report DIR` against the same contract, for a directory: only its own
// files, an earlier report replaced whole, a symlinked DIR followed, a
// failed write leaving the earlier report and no staging folder.
TEST_F(WriteContractTest, ReportTouchesOnlyItsOwnFiles) {
  fs::path out = dir_ / "report";
  auto report = [&](const std::string& extra = "") {
    return shell_.interpreter.ExecuteLine(fmt::format("report {}{}", out.string(), extra));
  };
  ASSERT_TRUE(report().ok());
  std::string index = Slurp((out / "index.html").string());
  ASSERT_FALSE(index.empty());
  // A file of the user's inside: refused, named, kept; then --force keeps it too.
  std::ofstream(out / "notes.txt") << "mine";
  Status refused = report();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("notes.txt"), std::string::npos) << refused.message();
  EXPECT_EQ(Slurp((out / "notes.txt").string()), "mine");
  ASSERT_TRUE(report(" --force").ok());
  EXPECT_EQ(Slurp((out / "notes.txt").string()), "mine");
  fs::remove(out / "notes.txt");
  index = Slurp((out / "index.html").string());
  // A failed write: the earlier report as it was, no staging folder.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{64, 64};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::_exit(report().ok() ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(Slurp((out / "index.html").string()), index);
  EXPECT_EQ(LeftoverTemps(dir_), 0);
  EXPECT_EQ(LeftoverTemps(out), 0);
  // A symlinked DIR: followed, kept.
  fs::path link = dir_ / "link";
  fs::create_directory_symlink("report", link);
  ASSERT_TRUE(shell_.interpreter.ExecuteLine("report " + link.string()).ok());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_TRUE(fs::exists(out / "index.html"));
  EXPECT_EQ(LeftoverTemps(dir_), 0);
}

}  // namespace
}  // namespace airscope

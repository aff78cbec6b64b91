// fuzz_driver: the fuzz targets (fuzz_targets.h) without libFuzzer, for the
// sanitizer build (gcc, ASan + UBSan) that CI runs: every target over its
// seeds (seeds.txt) and then over mutants of them, made by a deterministic
// pseudo-random loop, for a bounded time per target. It finds less than
// clang's coverage-guided fuzzing (scripts/fuzz) but runs in CI on every
// change, so a reader that starts crashing on a mutant of its own test data
// is caught there.
//
//   fuzz_driver ROOT [--seconds S] [--seed N] [TARGET...]
//       ROOT: the repository (seeds.txt's patterns are relative to it);
//       S seconds of mutants per target (default 4), after its seeds;
//       N seeds the mutations (default 29): the same N gives the same mutants.
//   fuzz_driver --run TARGET FILE
//       runs one input (a crash file this driver wrote) to reproduce it.
//
// A crash, sanitizer report, trap (a broken invariant) or an input that runs
// for more than kInputSeconds writes the input to
// fuzz-crash-<target>-<n> in the working directory before the process dies;
// turn it into a regression test (its reader's unit test).
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) && __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define AIRSCOPE_HAVE_DEATH_CALLBACK 1
#endif

#include "tests/fuzz/fuzz_targets.h"

namespace {

constexpr size_t kMaxInputBytes = 65536;  // as scripts/fuzz's -max_len
constexpr unsigned kInputSeconds = 20;    // one input running longer is a hang

// What the crash handlers write out. A signal handler can reach nothing
// else, so these are globals of this test program (nothing of airscope's).
const std::string* g_input = nullptr;
char g_crash_path[256] = "";

void WriteCrashInput() {
  if (g_input == nullptr || g_crash_path[0] == '\0') return;
  int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* data = g_input->data();
  size_t left = g_input->size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n <= 0) break;
    data += n;
    left -= static_cast<size_t>(n);
  }
  ::close(fd);
  constexpr std::string_view kSaid = "fuzz_driver: the input is in ";
  (void)!::write(2, kSaid.data(), kSaid.size());
  (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
  (void)!::write(2, "\n", 1);
}

void OnFatalSignal(int signal) {
  if (signal == SIGALRM) {
    constexpr std::string_view kHang = "fuzz_driver: an input ran for too long (a hang?)\n";
    (void)!::write(2, kHang.data(), kHang.size());
  }
  WriteCrashInput();
  ::signal(signal == SIGALRM ? SIGABRT : signal, SIG_DFL);
  ::raise(signal == SIGALRM ? SIGABRT : signal);
}

void InstallCrashHandlers() {
  for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM}) ::signal(s, OnFatalSignal);
#ifdef AIRSCOPE_HAVE_DEATH_CALLBACK
  __sanitizer_set_death_callback(WriteCrashInput);  // an ASan or UBSan report ends the process without a signal
#endif
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// seeds.txt: the files of `target`'s row, sorted (glob order), under `root`.
std::vector<std::string> SeedFiles(const std::string& root, std::string_view target) {
  std::ifstream in(root + "/tests/fuzz/seeds.txt");
  std::vector<std::string> files;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name;
    if (!(words >> name) || name.starts_with("#") || name != target) continue;
    std::string pattern;
    while (words >> pattern) {
      glob_t found{};
      if (::glob((root + "/" + pattern).c_str(), 0, nullptr, &found) == 0) {
        for (size_t i = 0; i < found.gl_pathc; ++i) files.emplace_back(found.gl_pathv[i]);
      }
      ::globfree(&found);
    }
  }
  return files;
}

// Deterministic mutations, the kinds that found airscope's reader bugs so
// far: numbers made huge, negative or non-numbers, brackets and quotes
// added or lost, lines cut or repeated (wide lists), bytes flipped.
class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  std::string Mutate(const std::vector<std::string>& seeds) {
    std::string data = seeds[Below(seeds.size())];
    size_t rounds = 1 + Below(4);
    for (size_t i = 0; i < rounds; ++i) MutateOnce(data, seeds);
    if (data.size() > kMaxInputBytes) data.resize(kMaxInputBytes);
    return data;
  }

 private:
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_() % n); }

  void MutateOnce(std::string& data, const std::vector<std::string>& seeds) {
    // Single bytes (a NUL among them) and longer tokens.
    static constexpr std::string_view kBytes("[]{}()\"',:\n\r\t%$=\\#-\xEF\xff\0", 22);
    static constexpr std::string_view kTokens[] = {
        "=== ", "\n=== ", "-5", "-1", "1e17", "1e308", "nan", "inf", "9223372036854775807", "18446744073709551616"};
    static constexpr std::string_view kNumbers[] = {"-5",
                                                    "0",
                                                    "-1",
                                                    "1e17",
                                                    "1e308",
                                                    "-1e17",
                                                    "9223372036854775807",
                                                    "18446744073709551616",
                                                    "4611686018427387904",
                                                    "nan",
                                                    "2147483648"};
    size_t at = Below(data.size() + 1);
    switch (Below(8)) {
      case 0:  // flip a bit
        if (!data.empty()) data[Below(data.size())] ^= static_cast<char>(1u << Below(8));
        break;
      case 1: {  // a byte or a token in
        if (Below(2) == 0) {
          data.insert(at, 1, kBytes[Below(kBytes.size())]);
        } else {
          std::string_view token = kTokens[Below(std::size(kTokens))];
          data.insert(at, token.data(), token.size());
        }
        break;
      }
      case 2:  // a range out
        if (!data.empty()) data.erase(Below(data.size()), 1 + Below(32));
        break;
      case 3: {  // a range repeated: wide lists, long lines, deep nesting
        if (data.empty()) break;
        size_t from = Below(data.size());
        std::string chunk = data.substr(from, 1 + Below(64));
        size_t times = 1 + Below(16);
        std::string repeated;
        for (size_t i = 0; i < times; ++i) repeated += chunk;
        data.insert(Below(data.size() + 1), repeated);
        break;
      }
      case 4: {  // a number replaced
        size_t digit = data.find_first_of("0123456789", Below(data.size() + 1));
        if (digit == std::string::npos) break;
        size_t end = data.find_first_not_of("0123456789.eE+-", digit);
        if (end == std::string::npos) end = data.size();
        std::string_view number = kNumbers[Below(std::size(kNumbers))];
        data.replace(digit, end - digit, number);
        break;
      }
      case 5: {  // a line cut or repeated
        size_t start = data.rfind('\n', at == 0 ? 0 : at - 1);
        start = start == std::string::npos ? 0 : start + 1;
        size_t end = data.find('\n', start);
        end = end == std::string::npos ? data.size() : end + 1;
        if (Below(2) == 0) {
          data.erase(start, end - start);
        } else {
          data.insert(end, data.substr(start, end - start));
        }
        break;
      }
      case 6: {  // spliced with another seed
        const std::string& other = seeds[Below(seeds.size())];
        data = data.substr(0, at) + other.substr(Below(other.size() + 1));
        break;
      }
      default:  // a byte set
        if (!data.empty()) data[Below(data.size())] = static_cast<char>(Below(256));
        break;
    }
  }

  std::mt19937_64 rng_;
};

uint64_t NameHash(std::string_view name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

void RunOne(const airscope::fuzz::Target& target, const std::string& input, size_t n) {
  std::snprintf(g_crash_path, sizeof(g_crash_path), "fuzz-crash-%.*s-%zu", static_cast<int>(target.name.size()),
                target.name.data(), n);
  g_input = &input;
  ::alarm(kInputSeconds);
  target.run(input);
  ::alarm(0);
  g_input = nullptr;
}

int Usage() {
  std::fprintf(stderr,
               "usage: fuzz_driver ROOT [--seconds S] [--seed N] [TARGET...]\n"
               "       fuzz_driver --run TARGET FILE\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using airscope::fuzz::FindTarget;
  using airscope::fuzz::Target;
  std::vector<std::string> args(argv + 1, argv + argc);
  InstallCrashHandlers();
  if (!args.empty() && args[0] == "--run") {
    if (args.size() != 3 || !FindTarget(args[1])) return Usage();
    std::string input = ReadWhole(args[2]);
    RunOne(*FindTarget(args[1]), input, 0);
    std::printf("fuzz_driver: %s: %s ran without a crash\n", args[1].c_str(), args[2].c_str());
    return 0;
  }
  if (args.empty()) return Usage();
  std::string root = args[0];
  double seconds = 4;
  uint64_t seed = 29;
  std::vector<const Target*> targets;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--seconds" && i + 1 < args.size()) {
      seconds = std::stod(args[++i]);
    } else if (args[i] == "--seed" && i + 1 < args.size()) {
      seed = std::stoull(args[++i]);
    } else if (const Target* t = FindTarget(args[i])) {
      targets.push_back(t);
    } else {
      std::fprintf(stderr, "fuzz_driver: no target '%s'\n", args[i].c_str());
      return Usage();
    }
  }
  if (targets.empty()) {
    for (const Target& t : airscope::fuzz::Targets()) targets.push_back(&t);
  }
  for (const Target* target : targets) {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::string> seeds;
    for (const std::string& file : SeedFiles(root, target->name)) {
      seeds.push_back(ReadWhole(file));
      if (seeds.back().size() > kMaxInputBytes) seeds.back().resize(kMaxInputBytes);
    }
    if (seeds.empty()) {
      std::fprintf(stderr, "fuzz_driver: %.*s: no seeds (tests/fuzz/seeds.txt under %s)\n",
                   static_cast<int>(target->name.size()), target->name.data(), root.c_str());
      return 1;
    }
    size_t n = 0;
    for (const std::string& s : seeds) RunOne(*target, s, n++);
    Mutator mutator(seed ^ NameHash(target->name));
    auto mutants_from = std::chrono::steady_clock::now();
    size_t mutants = 0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - mutants_from).count() < seconds) {
      std::string input = mutator.Mutate(seeds);
      RunOne(*target, input, n++);
      ++mutants;
    }
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz_driver: %.*s: %zu seeds, %zu mutants (seed %llu), %.1f s, no crash\n",
                static_cast<int>(target->name.size()), target->name.data(), seeds.size(), mutants,
                static_cast<unsigned long long>(seed), took);
    std::fflush(stdout);
  }
  return 0;
}

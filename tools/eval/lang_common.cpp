// Shared pieces of the language-identification modes of `langsift-eval`; see lang_common.hpp.
#include "lang_common.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <set>
#include <thread>

#include "common/cli.hpp"
#include "langsift/detail/ascii.hpp"
#include "langsift/options.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace langsift::eval {

// ---------------------------------------------------------------------------------------------
// Samples

bool list_language_files(const fs::path& dir, std::vector<language_file>& out, std::string& error) {
  out.clear();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = dir.string() + ": not a directory";
    return false;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const fs::path& p = entry.path();
    if (p.extension() != ".txt" || !entry.is_regular_file(ec)) continue;
    out.push_back({p.stem().string(), p});
  }
  if (ec) {
    error = dir.string() + ": " + ec.message();
    return false;
  }
  std::sort(out.begin(), out.end(), [](const language_file& a, const language_file& b) { return a.code < b.code; });
  return true;
}

std::vector<std::string> list_sample_sets(const fs::path& dir) {
  std::vector<std::string> sets;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_directory(ec)) continue;
    for (const auto& inner : fs::directory_iterator(entry.path(), ec)) {
      if (inner.path().extension() == ".txt") {
        sets.push_back(entry.path().filename().string());
        break;
      }
    }
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

bool read_samples(const fs::path& path, std::size_t limit, std::vector<std::string>& out, std::string& error) {
  out.clear();
  std::string text;
  if (!cli::read_file(path.string(), text, error)) return false;
  std::size_t pos = 0;
  while (pos < text.size() && (limit == 0 || out.size() < limit)) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) out.emplace_back(line);
    pos = end + 1;
  }
  return true;
}

std::vector<std::string> build_documents(const std::vector<std::string>& sentences, std::size_t min_bytes) {
  std::vector<std::string> docs;
  std::string cur;
  for (const std::string& s : sentences) {
    if (!cur.empty()) cur += ' ';
    cur += s;
    if (cur.size() >= min_bytes) {
      docs.push_back(std::move(cur));
      cur.clear();
    }
  }
  return docs;
}

std::size_t utf8_length(std::string_view s) noexcept {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Language codes

namespace {

// A field without SP, CR, TAB, VT and FF at either end.
std::string_view trim(std::string_view s) {
  return detail::trim_if(s, [](unsigned char c) { return c == ' ' || c == '\r' || c == '\t' || c == '\v' || c == '\f'; });
}

}  // namespace

std::string_view first_field(std::string_view line) noexcept {
  std::size_t tab = line.find('\t');
  return trim(line.substr(0, tab));
}

std::vector<std::string_view> tab_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  for (;;) {
    std::size_t tab = line.find('\t', pos);
    fields.push_back(trim(line.substr(pos, tab == std::string_view::npos ? std::string_view::npos : tab - pos)));
    if (tab == std::string_view::npos) break;
    pos = tab + 1;
  }
  return fields;
}

bool is_no_answer(std::string_view code) noexcept {
  return code.empty() || detail::iequals(code, "und");
}

std::string_view primary_subtag(std::string_view code) noexcept {
  return code.substr(0, code.find_first_of("-_"));
}

std::string normalize_code(std::string_view code, bool strict) {
  std::string_view c = strict ? code : primary_subtag(code);
  std::string out(c);
  for (char& ch : out) ch = detail::ascii_lower(ch);
  if (strict)
    std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

bool codes_match(std::string_view answer, std::string_view truth, bool strict) {
  if (is_no_answer(answer)) return false;
  return normalize_code(answer, strict) == normalize_code(truth, strict);
}

std::vector<std::string> code_list(std::string_view s) {
  const std::vector<std::string_view> items = split_code_list(s);
  return std::vector<std::string>(items.begin(), items.end());
}

std::vector<std::string> split_list(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find(sep, pos);
    if (end == std::string_view::npos) end = s.size();
    std::string_view item = trim(s.substr(pos, end - pos));
    if (!item.empty()) out.emplace_back(item);
    pos = end + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Detectors

namespace {

struct fd_closer {
  int& fd;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

/// Starts `/bin/sh -c command` with `in` as its stdin and `out` as its stdout, SIGPIPE back at its
/// default: its pid, or -1 with `error` set.
pid_t spawn_shell(const std::string& command, int in, int out, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  std::string sh = "sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc == 0) return pid;
  error = std::string("cannot start /bin/sh: ") + std::strerror(rc);
  return -1;
}

/// Writes `input` to `fd` and closes it; the errno that stopped it (EPIPE: the reader stopped),
/// or 0.
int write_and_close(int fd, const std::string& input) {
  int write_errno = 0;
  std::size_t done = 0;
  while (done < input.size()) {
    ssize_t n = ::write(fd, input.data() + done, input.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      write_errno = errno;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return write_errno;
}

/// Reads `fd` to its end into `output`: the errno that stopped it, or 0.
int read_to_end(int fd, std::string& output) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      output.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      return 0;
    } else if (errno != EINTR) {
      return errno;
    }
  }
}

/// The run judged: it read its output, exited 0, and printed one line per sample (into
/// `out.lines`). False with `error` saying why.
bool judge_run(int read_errno, int status, int write_errno, const std::string& output, std::size_t samples,
               command_run& out, std::string& error) {
  if (read_errno) {
    error = std::string("reading its output: ") + std::strerror(read_errno);
    return false;
  }
  if (WIFSIGNALED(status)) {
    error = "killed by signal " + std::to_string(WTERMSIG(status));
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WEXITSTATUS(status) == 127) error += " (command not found?)";
    return false;
  }
  std::size_t pos = 0;
  while (pos < output.size()) {
    std::size_t end = output.find('\n', pos);
    if (end == std::string::npos) end = output.size();
    out.lines.emplace_back(output, pos, end - pos);
    pos = end + 1;
  }
  if (out.lines.size() != samples) {
    error = "printed " + std::to_string(out.lines.size()) + (out.lines.size() == 1 ? " line" : " lines") + " for " +
            std::to_string(samples) + (samples == 1 ? " input line" : " input lines");
    if (write_errno == EPIPE) error += " (it stopped reading its input)";
    return false;
  }
  return true;
}

}  // namespace

bool run_command(const std::string& command, const std::vector<std::string>& samples, command_run& out,
                 std::string& error) {
  out.lines.clear();
  out.seconds = 0;
  // A detector that stops reading must not kill us with SIGPIPE: writes then fail with EPIPE.
  // The child gets the default disposition back (POSIX_SPAWN_SETSIGDEF in spawn_shell).
  static const bool ignored = [] {
    std::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)ignored;

  std::string input;
  std::size_t total = 0;
  for (const std::string& s : samples) total += s.size() + 1;
  input.reserve(total);
  for (const std::string& s : samples) {
    input += s;
    input += '\n';
  }

  int to_child[2] = {-1, -1}, from_child[2] = {-1, -1};
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]})
      if (fd >= 0) ::close(fd);
    return false;
  }
  fd_closer c0{to_child[0]}, c1{to_child[1]}, c2{from_child[0]}, c3{from_child[1]};
  auto start = std::chrono::steady_clock::now();
  const pid_t pid = spawn_shell(command, to_child[0], from_child[1], error);
  if (pid < 0) return false;
  ::close(to_child[0]);
  c0.fd = -1;
  ::close(from_child[1]);
  c3.fd = -1;

  const int write_fd = to_child[1];
  c1.fd = -1;  // the writer thread owns it now
  int write_errno = 0;
  std::thread writer([&input, write_fd, &write_errno] { write_errno = write_and_close(write_fd, input); });
  std::string output;
  const int read_errno = read_to_end(from_child[0], output);
  writer.join();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return judge_run(read_errno, status, write_errno, output, samples.size(), out, error);
}

std::string shell_quote(std::string_view s) {
  bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return detail::is_ascii_alnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '+' ||
           c == '-';
  });
  if (plain) return std::string(s);
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string default_langsift_command(std::string_view args) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  fs::path tool = ec ? fs::path("langsift") : self.parent_path() / "langsift";
  return shell_quote(tool.string()) + " " + std::string(args);
}

bool detector_options::add(std::string_view value) {
  const std::size_t eq = value.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == value.size()) return false;
  detector d{std::string(value.substr(0, eq)), std::string(value.substr(eq + 1))};
  if (d.name.find_first_of("\t\n|,") != std::string::npos) return false;
  extra_.push_back(std::move(d));
  return true;
}

bool detector_options::finish(std::vector<detector>& out, std::string& error) const {
  out.clear();
  if (!no_langsift_) out.push_back({"langsift", default_langsift_command(default_args_)});
  out.insert(out.end(), extra_.begin(), extra_.end());
  if (out.empty()) {
    error = "no detector: --no-langsift needs at least one --detector NAME=CMD";
    return false;
  }
  std::set<std::string> names;
  for (const detector& d : out) {
    if (!names.insert(d.name).second) {
      error = "two detectors named '" + d.name + "'";
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Output

std::string pct(double fraction, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, fraction * 100.0);
  return buf;
}

std::string thousands(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

bool write_text(const std::string& path, const std::string& text, std::string& error) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return true;
  }
  return langsift::cli::write_file_atomic(path, text, error);
}

std::string md_cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

int finish_mode_args(const char* program, mode_args& a, const std::vector<std::string>& positional) {
  if (positional.empty()) return cli::fail(program, "DIR is required; see --help") + 1;
  if (positional.size() > 1) return cli::fail(program, "only one DIR, please") + 1;
  a.dir = positional[0];
  std::string error;
  if (!a.dets.finish(a.detectors, error)) return cli::fail(program, error) + 1;
  return -1;
}

bool run_detector(const char* program, const detector& d, const std::vector<std::string>& samples,
                  const std::string& what, command_run& run) {
  std::string error;
  if (run_command(d.command, samples, run, error)) return true;
  cli::fail(program, "detector '" + d.name + "' on " + what + ": " + error);
  return false;
}

std::string detectors_markdown(const std::vector<detector>& detectors) {
  std::string md = "- detectors:\n";
  for (const detector& d : detectors) md += "  - " + md_cell(d.name) + ": `" + d.command + "`\n";
  return md;
}

int write_reports(const char* program, const mode_args& a, const std::string& tsv, const std::string& markdown) {
  std::string error;
  if (!a.tsv.empty() && !write_text(a.tsv, tsv, error)) return cli::fail(program, error);
  if (!write_text(a.markdown, markdown, error)) return cli::fail(program, error);
  return 0;
}

}  // namespace langsift::eval

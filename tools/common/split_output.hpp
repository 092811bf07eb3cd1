// An output split by language: `langsift warc -o 'out/{language}.jsonl.zst'` writes each line to
// the file its language names ("out/de.jsonl.zst", "out/und.jsonl.zst"), in one pass.
//
//   - The template holds the field {language} once, and no other field ({word}: a usage error, so
//     that `{lang}` is not taken for a file name); braces that do not make a field are the name's.
//   - Each file is a compressed_output (compressed by the template's ending, written atomically).
//     commit() finishes every file (streams ended, flushed, synced) before it renames any, so that a
//     failure (a write error, a full disk, a file that cannot be created) replaces none of them:
//     the temporary files are removed and the files named are left as they were. Only a rename that
//     fails after others succeeded (the renames cannot be made one step) leaves some replaced.
//   - A file is created on its language's first line (open() creates one before any: `langsift
//     warc --languages` opens the languages asked for at the start).
//   - The directory before the component holding {language} must exist. The directories from that
//     component on are made when a file needs them ("out/{language}/part-1.jsonl" makes "out/de/"),
//     and removed again if the output is abandoned or a fatal signal ends the tool (while empty).
//   - The compressed files share one compressing thread (one per file would make hundreds).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/compressed_output.hpp"
#include "common/output.hpp"

namespace langsift::cli {

/// An output name with the field {language}: "out/{language}.jsonl.zst" is before "out/", after
/// ".jsonl.zst".
struct output_template {
  std::string before, after;
  std::string name(std::string_view code) const { return before + std::string(code) + after; }
};

/// Reads the fields of an output name: 0 when it has none (a plain file name), 1 when it is a
/// template (`t` set), -1 when it cannot be used (`error` says why, for a usage error): a field
/// other than {language}, {language} twice, a name ending in '/', or a ".." component after
/// {language} (every language would share a file).
inline int parse_output_template(std::string_view name, output_template& t, std::string& error) {
  constexpr std::string_view kField = "{language}";
  std::size_t at = std::string_view::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '{') continue;
    std::size_t j = i + 1;
    auto word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
    while (j < name.size() && word(name[j])) ++j;
    if (j == i + 1 || j == name.size() || name[j] != '}') continue;  // not a field: the name's own brace
    const std::string_view field = name.substr(i, j + 1 - i);
    if (field != kField) {
      error = "unknown field " + std::string(field) + " (the one field is {language})";
      return -1;
    }
    if (at != std::string_view::npos) {
      error = "{language} may appear once";
      return -1;
    }
    at = i;
    i = j;
  }
  if (at == std::string_view::npos) return 0;
  t.before = std::string(name.substr(0, at));
  t.after = std::string(name.substr(at + kField.size()));
  if (name.back() == '/') {
    error = "the template names a directory, not a file";
    return -1;
  }
  for (std::size_t b = 0; b <= t.after.size();) {
    const std::size_t e = std::min(t.after.find('/', b), t.after.size());
    if (b > 0 && t.after.compare(b, e - b, "..") == 0 && e - b == 2) {
      error = "'..' after {language} would put every language in one file";
      return -1;
    }
    b = e + 1;
  }
  return 1;
}

/// Whether a language code can stand in a file name as it is: ASCII letters, digits, '-' and '_',
/// beginning with a letter or a digit, at most 64 bytes (every built-in model's code, "und" too;
/// a trained model's code is whatever its corpus file or --langs said).
inline bool code_fits_file_name(std::string_view code) noexcept {
  if (code.empty() || code.size() > 64) return false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '-' && c != '_'))) return false;
  }
  return true;
}

/// The files of a template, one per language written (see the top of this file). Not thread-safe:
/// one thread writes (the compressing thread is its own).
class split_output {
 public:
  explicit split_output(output_template t) : t_(std::move(t)) {
    const std::size_t slash = t_.before.rfind('/');
    fixed_dir_ = slash == std::string::npos ? std::string(".") : t_.before.substr(0, slash + 1);
  }
  split_output(const split_output&) = delete;
  split_output& operator=(const split_output&) = delete;
  ~split_output() { abandon(); }

  /// The template's fixed directory (before the component holding {language}) is a directory
  /// files can be created in: checked before any work, as a plain -o FILE is by opening it.
  bool check(std::string& error) const {
    struct stat st {};
    if (::stat(fixed_dir_.c_str(), &st) != 0) {
      error = fixed_dir_ + ": " + std::strerror(errno);
      return false;
    }
    if (!S_ISDIR(st.st_mode)) {
      error = fixed_dir_ + ": not a directory";
      return false;
    }
    if (::access(fixed_dir_.c_str(), W_OK | X_OK) != 0) {
      error = fixed_dir_ + ": cannot create the output files there: " + std::strerror(errno);
      return false;
    }
    return true;
  }

  /// Creates `code`'s file (and the directories it needs) if it has none yet; false with `error`
  /// set when it cannot (the output has failed then: commit() says so).
  bool open(const std::string& code, std::string& error) {
    if (files_.count(code)) return true;
    if (!error_.empty()) {
      error = error_;
      return false;
    }
    const std::string path = t_.name(code);
    if (!make_directories(path, error)) {
      error_ = error;
      return false;
    }
    const bool compressed = compressed_output::kind_of(path) != compressed_output::kind::plain;
    if (compressed && !queue_) {
      auto q = std::make_unique<compression_queue>();
      if (!q->start(path, error)) {
        error_ = error;
        return false;
      }
      queue_ = std::move(q);
    }
    auto file = std::make_unique<compressed_output>(path, compressed ? queue_.get() : nullptr);
    if (!file->open(error)) {
      file->abandon();
      error_ = error;
      return false;
    }
    files_.emplace(code, std::move(file));
    return true;
  }

  /// Writes `data` to `code`'s file, creating it on the language's first line; false once anything
  /// failed (stop producing output then; commit() says what).
  bool write(const std::string& code, std::string&& data) {
    if (!error_.empty()) return false;
    auto f = files_.find(code);
    if (f == files_.end()) {
      std::string error;
      if (!open(code, error)) return false;
      f = files_.find(code);
    }
    return f->second->write(std::move(data));
  }

  /// Finishes every file, then renames each into place; false with `error` set (the first
  /// failure's) when anything failed, and then nothing was renamed (but see the top of the file).
  bool commit(std::string& error) {
    if (queue_) queue_->stop();  // every file's lines are compressed first
    bool ok = error_.empty();
    if (!ok) error = error_;
    for (auto& [code, file] : files_) {
      if (!ok) break;
      ok = file->finish(error);
    }
    for (auto& [code, file] : files_) {
      if (!ok) break;
      ok = file->publish(error);
    }
    if (!ok) {
      abandon();
      return false;
    }
    for (const auto& [dir, slot] : made_) detail::unregister_temp(slot);  // they hold the files now
    made_.clear();
    files_.clear();
    return true;
  }

  /// Gives the output up: every temporary file removed, the directories made removed again (when
  /// empty), the files named left as they were.
  void abandon() noexcept {
    if (queue_) queue_->stop();
    for (auto& [code, file] : files_) file->abandon();
    for (auto d = made_.rbegin(); d != made_.rend(); ++d) {
      ::rmdir(d->first.c_str());
      detail::unregister_temp(d->second);
    }
    made_.clear();
  }

  /// The languages with a file, in code order.
  std::vector<std::string> codes() const {
    std::vector<std::string> v;
    for (const auto& [code, file] : files_) v.push_back(code);
    return v;
  }

 private:
  /// Makes the directories `path` needs after the fixed directory, registering those it makes.
  bool make_directories(const std::string& path, std::string& error) {
    const std::size_t slash_before = t_.before.rfind('/');
    const std::size_t from = slash_before == std::string::npos ? 0 : slash_before + 1;  // the {language} component
    for (std::size_t slash = path.find('/', from); slash != std::string::npos; slash = path.find('/', slash + 1)) {
      const std::string dir = path.substr(0, slash);
      if (dir.empty() || dir.back() == '/') continue;  // "a//b"
      if (::mkdir(dir.c_str(), 0777) == 0) {
        made_.emplace_back(dir, detail::register_temp(dir, true));
        continue;
      }
      struct stat st {};
      const int e = errno;
      if (e == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
      error = dir + ": cannot make the directory: " + std::strerror(e == EEXIST ? ENOTDIR : e);
      return false;
    }
    return true;
  }

  output_template t_;
  std::string fixed_dir_;
  std::unique_ptr<compression_queue> queue_;  // the compressed files' thread (before files_: they use it)
  std::map<std::string, std::unique_ptr<compressed_output>, std::less<>> files_;
  std::vector<std::pair<std::string, int>> made_;  // directories made (path, signal registry slot)
  std::string error_;  // why the output failed (a file or directory that could not be made)
};

}  // namespace langsift::cli

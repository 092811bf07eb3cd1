// `python3 -m langsift` and the `langsift` command of a pip install: the C++ command itself
// (tools/langsift, linked into the extension as the library langsift_cli), run in this process on
// its standard descriptors — the same code as the `langsift` executable, so the same output byte
// for byte. The Python side (module.cpp's _cli_main, langsift/__main__.py) converts argv, flushes
// Python's streams and releases the GIL around run_cli().
#include <csignal>
#include <mutex>
#include <string>
#include <vector>

#include "common/output.hpp"
#include "langsift/subcommands.hpp"  // tools/langsift/subcommands.hpp

namespace langsift_py {

/// Runs `langsift args[1]...` (args[0]: the program) and returns its exit status. While it runs,
/// the signals the tools handle have their default action, as in a process of their own: Ctrl-C
/// (SIGINT) and SIGTERM end the process (its status then says so: 130, 143 in a shell) after the
/// tools' handlers have removed the temporary files being written (common/output.hpp), and a
/// closed pipe (SIGPIPE) ends it quietly, where CPython ignores SIGPIPE and SIGXFSZ and turns SIGINT
/// into KeyboardInterrupt, which no C++ loop would see. A signal that was ignored when Python
/// started (SIGINT, SIGTERM, SIGHUP under nohup or in a background job) stays ignored. The
/// handlers are restored afterwards. One call at a time (the tools' stdout is the process's).
int run_cli(std::vector<std::string>& args) {
  static std::mutex one_at_a_time;
  const std::lock_guard lock(one_at_a_time);
  constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
  struct sigaction saved[std::size(kSignals)] = {};
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    ::sigaction(kSignals[i], nullptr, &saved[i]);
    const bool inherited_ignore = saved[i].sa_handler == SIG_IGN && kSignals[i] != SIGPIPE && kSignals[i] != SIGXFSZ;
    if (inherited_ignore) continue;
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(kSignals[i], &dfl, nullptr);
  }
  langsift::cli::detail::g_temp_handlers_installed = false;  // install them over the defaults
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = langsift::cli::langsift_main(static_cast<int>(args.size()), argv.data(), /*embedded=*/true);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &saved[i], nullptr);
  langsift::cli::detail::g_temp_handlers_installed = false;
  return rc;
}

}  // namespace langsift_py
